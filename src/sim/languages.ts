// The simulated upstream answers in the language a prompt asks for, as a real model would, so a
// translation prompt on the default run passes the inline check's language rule (D5) instead of
// being escalated for an English answer. Its own reading of the prompt, independent of the
// product's: the simulator stands in for a model, not for Switchboard.

export const SIM_LANGUAGES = ['french', 'german', 'spanish', 'italian', 'portuguese', 'dutch', 'japanese', 'chinese', 'korean', 'russian'] as const;
export type SimLanguage = (typeof SIM_LANGUAGES)[number];

/** Each language's English name and the names a prompt in that language uses for it. */
const NAMES: Record<SimLanguage, string[]> = {
  french: ['french', 'français', 'francais'],
  german: ['german', 'deutsch', 'deutsche'],
  spanish: ['spanish', 'español', 'espanol', 'castellano'],
  italian: ['italian', 'italiano'],
  portuguese: ['portuguese', 'português', 'portugues'],
  dutch: ['dutch', 'nederlands'],
  japanese: ['japanese', '日本語'],
  chinese: ['chinese', 'mandarin', '中文', '汉语', '漢語'],
  korean: ['korean', '한국어'],
  russian: ['russian', 'русский', 'по-русски'],
};

const byName = new Map<string, SimLanguage>();
for (const [lang, names] of Object.entries(NAMES) as Array<[SimLanguage, string[]]>) for (const n of names) byName.set(n, lang);
const ALT = [...byName.keys()].sort((a, b) => b.length - a.length).join('|');
// "translate … into French", "answer in German", "réponds en français", "auf Deutsch", "em português".
const ASKED = new RegExp(
  `(?:translat\\w*|respond|answer|reply|write|say|speak|output|return|explain|réponds|répondez|traduis|traduisez|antworte|übersetze|responde|traduce|rispondi|traduci|traduza)[^.\\n]{0,80}?(?:\\s|^)(?:in|into|to|en|auf|em|al|in the)\\s+(${ALT})(?![\\p{L}])`,
  'iu',
);
const NATIVE = /日本語で|用中文|中文回答|用汉语|한국어로|по-русски/u;

/** The language the prompt asks the answer to be in, or null (answer in English). */
export function requestedLanguage(text: string): SimLanguage | null {
  const head = text.length > 4096 ? `${text.slice(0, 2048)}\n${text.slice(-2048)}` : text;
  const m = ASKED.exec(head);
  if (m) return byName.get(m[1]!.toLowerCase()) ?? null;
  const n = NATIVE.exec(head);
  if (!n) return null;
  if (n[0].startsWith('日本語')) return 'japanese';
  if (n[0].startsWith('한국어')) return 'korean';
  if (n[0].startsWith('по')) return 'russian';
  return 'chinese';
}

type Sentence = (k: string) => string;
const Q: Record<string, [string, string]> = { fr: ['« ', ' »'], de: ['„', '“'], es: ['«', '»'], it: ['«', '»'], pt: ['«', '»'], nl: ['"', '"'] };
const q = (lang: keyof typeof Q, k: string) => `${Q[lang]![0]}${k}${Q[lang]![1]}`;

/** Opening sentence first, then sentences that may echo a keyword of the prompt (Latin scripts only). */
const SENTENCES: Record<SimLanguage, Sentence[]> = {
  french: [
    () => 'Voici une réponse simulée, et elle est écrite en français pour vous.',
    (k) => `Le point essentiel sur ${q('fr', k)} est que la réponse dépend du contexte que vous avez décrit.`,
    (k) => `Pour ${k}, il est utile de vérifier les hypothèses et de comparer les résultats avec une solution simple.`,
    (k) => `Dans la plupart des cas, ${k} se comporte de façon prévisible quand les données sont claires.`,
    (k) => `Enfin, nous vous conseillons de revoir ${k} avec des résultats réels.`,
  ],
  german: [
    () => 'Dies ist eine simulierte Antwort, und sie ist auf Deutsch geschrieben.',
    (k) => `Der wichtigste Punkt zu ${q('de', k)} ist, dass die Antwort von dem Kontext abhängt, den Sie beschrieben haben.`,
    (k) => `Für ${k} ist es sinnvoll, die Annahmen zu prüfen und die Ergebnisse mit einer einfachen Lösung zu vergleichen.`,
    (k) => `In den meisten Fällen verhält sich ${k} vorhersehbar, wenn die Daten klar sind.`,
    (k) => `Schließlich empfehlen wir, ${k} auch mit echten Ergebnissen zu prüfen.`,
  ],
  spanish: [
    () => 'Esta es una respuesta simulada, y está escrita en español para usted.',
    (k) => `El punto clave sobre ${q('es', k)} es que la respuesta depende del contexto que usted describió.`,
    (k) => `Para ${k}, es útil revisar los supuestos y comparar los resultados con una solución simple.`,
    (k) => `En la mayoría de los casos, ${k} se comporta como se espera cuando los datos son claros.`,
    (k) => `Por último, le recomendamos revisar ${k} con resultados reales, pero con calma.`,
  ],
  italian: [
    () => 'Questa è una risposta simulata, scritta in italiano per te.',
    (k) => `Il punto chiave su ${q('it', k)} è che la risposta dipende dal contesto che hai descritto.`,
    (k) => `Per ${k} è utile verificare le ipotesi e confrontare i risultati con una soluzione semplice.`,
    (k) => `Nella maggior parte dei casi, ${k} si comporta come previsto quando i dati sono chiari.`,
    (k) => `Infine, è una buona idea rivedere anche ${k} con risultati reali, non solo con questo esempio.`,
  ],
  portuguese: [
    () => 'Esta é uma resposta simulada, escrita em português para você.',
    (k) => `O ponto principal sobre ${q('pt', k)} é que a resposta depende do contexto que você descreveu.`,
    (k) => `Para ${k}, é útil verificar as hipóteses e comparar os resultados com uma solução simples.`,
    (k) => `Na maioria dos casos, ${k} se comporta como esperado quando os dados são claros.`,
    (k) => `Por fim, recomendamos rever ${k} com resultados reais, e não apenas com este exemplo.`,
  ],
  dutch: [
    () => 'Dit is een gesimuleerd antwoord, en het is in het Nederlands geschreven.',
    (k) => `Het belangrijkste punt over ${q('nl', k)} is dat het antwoord van de context afhangt.`,
    (k) => `Voor ${k} is het nuttig om de aannames te controleren en de resultaten met een eenvoudige oplossing te vergelijken.`,
    (k) => `In de meeste gevallen gedraagt ${k} zich voorspelbaar, maar controleer het ook met echte resultaten.`,
  ],
  japanese: [
    () => 'これはシミュレーションによる回答です。',
    () => 'ご質問の内容について、要点を簡単にまとめます。',
    () => 'まず、前提条件を確認することが大切です。',
    () => '次に、結果を簡単な方法と比較してください。',
    () => '最後に、実際のデータで確認することをお勧めします。',
  ],
  chinese: [
    () => '这是一个模拟的回答。',
    () => '关于您的问题，这里简要总结要点。',
    () => '首先，应当仔细检查前提条件。',
    () => '其次，请将结果与简单的方案进行比较。',
    () => '最后，建议您用真实数据再次确认。',
  ],
  korean: [
    () => '이것은 시뮬레이션된 답변입니다.',
    () => '먼저 전제 조건을 확인하는 것이 중요합니다.',
    () => '다음으로 결과를 간단한 방법과 비교하십시오.',
    () => '마지막으로 실제 데이터로 다시 확인하는 것을 권장합니다.',
  ],
  russian: [
    () => 'Это смоделированный ответ.',
    () => 'Сначала важно проверить исходные предположения.',
    () => 'Затем сравните результаты с простым решением.',
    () => 'Наконец, рекомендуем проверить всё на реальных данных.',
  ],
};

/** Said instead of a keyword when the prompt gave none. */
const TOPIC: Partial<Record<SimLanguage, string>> = {
  french: 'ce sujet',
  german: 'dieses Thema',
  spanish: 'este tema',
  italian: 'questo tema',
  portuguese: 'este tema',
  dutch: 'dit onderwerp',
};

const SPACED = new Set<SimLanguage>(['french', 'german', 'spanish', 'italian', 'portuguese', 'dutch', 'korean', 'russian']);

/** Prose of about `targetTokens` in `lang`, echoing the prompt's keywords where the script allows. */
export function proseIn(lang: SimLanguage, words: string[], targetTokens: number): string {
  const list = SENTENCES[lang];
  const out = [list[0]!('')];
  let chars = out[0]!.length;
  const target = targetTokens * 4;
  for (let i = 0; chars < target; i++) {
    const s = list[1 + (i % (list.length - 1))]!(words.length > 0 ? words[i % words.length]! : (TOPIC[lang] ?? ''));
    out.push(s);
    chars += s.length + 1;
  }
  return out.join(SPACED.has(lang) ? ' ' : '');
}

const INSTRUCTION_WORD = /^(?:translat|respond|réponds|answer|reply|write|following|sentence|text)/;

/** The prompt's keywords without the words of the instruction itself ("translate", "French"). */
export function topicWords(words: string[]): string[] {
  return words.filter((w) => !INSTRUCTION_WORD.test(w) && !byName.has(w));
}
