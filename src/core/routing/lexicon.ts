// Cue words for Layer 1 (D18): words that name a kind of work or its size, or the writer
// (`self`), in the languages the corpus covers. They are not rules: each cue only adds a
// structural feature ("an extraction cue in the instruction") whose weight the training sets, so
// a cue the corpus never saw in a given phrasing still carries what the same cue taught
// elsewhere. Lowercase, whole words; a space joins two adjacent words; a CJK cue of two
// characters is matched as a character pair.
import type { TaskFamily } from './vocabulary.ts';

export type CueSlot = TaskFamily | 'bigger' | 'smaller' | 'self';

export const CUES: Readonly<Record<CueSlot, readonly string[]>> = {
  coding: [
    'code', 'coding', 'function', 'bug', 'bugs', 'debug', 'compile', 'compiler', 'exception', 'stacktrace', 'traceback',
    'typescript', 'javascript', 'python', 'java', 'rust', 'golang', 'kotlin', 'sql', 'regex', 'api', 'endpoint',
    'refactor', 'implement', 'script', 'bash', 'docker', 'dockerfile', 'kubernetes', 'git', 'npm', 'react', 'css', 'html',
    'method', 'variable', 'async', 'unit tests', 'pytest', 'jest', 'repo', 'deploy', 'backend', 'frontend',
    'programm', 'programmieren', 'código', 'codice', 'código', 'funktion', 'función', 'fonction', 'funzione', 'função',
    'код', 'функцию', 'функция', 'コード', '代码', '函数', '코드', 'バグ', 'エラー', '报错', 'ошибка', 'erreur', 'fehler', 'error',
    'query', 'consulta', 'requête', 'abfrage', 'migration', 'microservices', 'crd', 'cli',
  ],
  writing: [
    'write', 'essay', 'blog', 'post', 'article', 'story', 'poem', 'haiku', 'email', 'letter', 'draft', 'rewrite', 'rephrase',
    'reword', 'proofread', 'tagline', 'slogan', 'caption', 'headline', 'speech', 'toast', 'newsletter', 'cover letter',
    'script', 'tone', 'polish', 'chapter', 'novel', 'copy', 'bio', 'description', 'subject lines',
    'écris', 'rédige', 'corrige', 'lettre', 'schreib', 'schreibe', 'verfasse', 'brief', 'escribe', 'redacta', 'carta',
    'escreva', 'scrivi', 'riscrivi', 'напиши', 'письмо', '書いて', '文章', '写', '写一', 'napisz', 'schrijf',
  ],
  research: [
    'research', 'sources', 'cite', 'citations', 'evidence', 'studies', 'study', 'literature', 'history', 'historians',
    'explain', 'explanation', 'how does', 'how do', 'how did', 'works', 'why', 'causes', 'compare', 'comparison', 'overview', 'background', 'theories', 'investigate', 'review',
    'who', 'when', 'where', 'which', 'what year', 'pros and', 'differences', 'market', 'landscape',
    'pourquoi', 'quelles', 'qui', 'quand', 'warum', 'erkläre', 'wann', 'wer', 'por qué', 'qué', 'cuál', 'quién',
    'por que', 'quais', 'perché', 'quali', 'chi', 'почему', 'кто', 'когда', 'причины', 'なぜ', 'いつ', '誰', 
    '什么', '比较', '原因', '언제', '왜', 'evidencia', 'evidência', 'исследований',
  ],
  'data-analysis': [
    'data', 'dataset', 'csv', 'spreadsheet', 'excel', 'sheets', 'table', 'column', 'columns', 'rows', 'chart', 'plot',
    'statistics', 'statistical', 'regression', 'correlation', 'average', 'mean', 'median', 'pivot', 'pandas', 'dataframe',
    'metrics', 'kpi', 'trend', 'trends', 'cohort', 'churn', 'retention', 'conversion', 'funnel', 'forecast', 'a/b',
    'significant', 'anomalies', 'outliers', 'analyse', 'analyze', 'analysis', 'données', 'tableau', 'moyenne', 'daten',
    'tabelle', 'datos', 'tabla', 'dados', 'tabela', 'dati', 'tabella', 'данные', 'данных', 'таблица', 'データ', '表', '数据',
    '分析', 'analizza', 'analise', 'analiza', 'проанализируй', '平均',
  ],
  math: [
    'prove', 'proof', 'theorem', 'lemma', 'equation', 'equations', 'integral', 'derivative', 'solve', 'calculate', 'compute',
    'probability', 'matrix', 'eigenvalues', 'algebra', 'geometry', 'calculus', 'polynomial', 'formula', 'prime', 'sqrt',
    'math', 'maths', 'simplify', 'factor', 'series', 'induction', 'converges', 'percent', 'area',
    'démontre', 'résous', 'équation', 'calcule', 'beweise', 'berechne', 'gleichung', 'demuestra', 'resuelve', 'calcula',
    'ecuación', 'prove', 'prova', 'dimostra', 'risolvi', 'calcola', 'докажи', 'найди', 'реши', 'уравнение', 'сколько',
    '証明', '解いて', '方程式', '证明', '求', '计算', '方程', '증명', 'quanto', 'combien',
  ],
  summarization: [
    'summarize', 'summarise', 'summary', 'tldr', 'tl;dr', 'recap', 'condense', 'gist', 'key points', 'takeaways',
    'shorten', 'synopsis', 'abstract', 'boil', 'sum up', 'in short', 'briefing', 'digest',
    'résume', 'résumé', 'synthèse', 'fasse', 'zusammen', 'zusammenfassung', 'resume', 'resumen', 'resuma', 'resumo',
    'riassumi', 'riassunto', 'sintesi', 'кратко', 'резюме', 'изложение', '要約', 'まとめて', '总结', '概括', '摘要',
    'vat', 'samen', '요약',
  ],
  translation: [
    'translate', 'translation', 'translated', 'localise', 'localize', 'in spanish', 'into spanish', 'into french',
    'into german', 'into english', 'to english', 'in english', 'you say', 'mean in',
    'traduis', 'traduire', 'traduction', 'übersetze', 'übersetzung', 'traduce', 'traducción', 'traduza', 'tradução',
    'traduci', 'traduzione', 'переведи', 'перевод', '翻訳', '翻译', '英語', '英文', '英语', 'vertaal', 'przetłumacz',
    'ingilizcede', 'nasıl', 'auf englisch', 'en inglés', 'al inglés', 'em inglês', 'in inglese', 'на английский',
  ],
  extraction: [
    'extract', 'extraction', 'parse', 'fields', 'entities', 'json', 'schema', 'structured', 'pull out', 'pull', 'classify',
    'categorize', 'label', 'sentiment', 'invoice', 'receipt', 'fill', 'csv', 'columns', 'spreadsheet', 'list the',
    'extrais', 'extrahiere', 'extrae', 'extraia', 'estrai', 'извлеки', 'вытащи', '抽出', '提取', 'clasifica',
    'classifica', 'ポジティブ', 'ネガティブ', 'positive', 'negative',
  ],
  conversation: [
    'hi', 'hello', 'hey', 'thanks', 'thank', 'joke', 'bored', 'feel', 'feeling', 'advice', 'friend', 'chat', 'talk',
    'lol', 'cool', 'ok', 'good morning', 'good night', 'how are', 'recommend', 'should i', 'my partner', 'my boss',
    'salut', 'ça va', 'hallo', 'witz', 'hola', 'qué tal', 'olá', 'bom dia', 'ciao', 'привет', 'дела', 'こんにちは',
    '你好', '聊天', '안녕하세요', 'merhaba', 'nasılsın', 'conseils', 'consejo', 'conselho', 'consiglio', 'совет',
  ],
  bigger: [
    'design', 'architecture', 'comprehensive', 'thorough', 'thoroughly', 'in depth', 'detailed', 'complete', 'full',
    'entire', 'whole', 'prove', 'proof', 'derive', 'rigorous', 'plan', 'strategy', 'trade-offs', 'tradeoffs', 'compare',
    'evaluate', 'framework', 'end to', 'production', 'distributed', 'scalable', 'concurrency', 'migration', 'report',
    'review', 'chapter', 'chapters', 'sections', 'long', 'structured', 'step by', 'all', 'every', 'each',
    'approfondie', 'complète', 'détaillée', 'ausführlich', 'umfassend', 'gründlich', 'a fondo', 'completo', 'detallado',
    'aprofundada', 'completa', 'approfondito', 'dettagliato', 'подробный', 'подробно', 'полный', '詳しく', '詳細', '全文',
    '详细', '完整', '全面', '深入', 'じっくり',
  ],
  smaller: [
    'quick', 'quickly', 'short', 'brief', 'briefly', 'one line', 'one sentence', 'one word', 'simple', 'just', 'only',
    'tldr', 'one-liner', 'single', 'a line', 'rapide', 'court', 'kurz', 'kurzen', 'breve', 'corto', 'curta', 'curto',
    'коротко', 'кратко', '一句话', '简短', '一文', '短く',
  ],
  // The writer speaking of themselves (advice about one's own situation reads as conversation,
  // a question about the world as research).
  self: [
    'i', 'my', 'me', 'myself', 'mine', 'je', 'moi', 'mon', 'mes', 'ich', 'mein', 'meine', 'meinen', 'meiner', 'mir', 'mich',
    'yo', 'mis', 'eu', 'meu', 'minha', 'io', 'mio', 'mia', 'miei', 'ik', 'mijn', 'mój', 'moja', 'mnie', 'ben', 'benim',
    'jag', 'mitt', 'mig', 'я', 'мой', 'моя', 'мне', 'меня', '我', '私', '僕', '俺', '나는', '내가', '저는', '제가',
  ],
};
