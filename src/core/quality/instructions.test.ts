import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { CanonicalRequest } from '../canonical/types.ts';
import { readInstructions, INSTRUCTION_HEAD, INSTRUCTION_TAIL } from './instructions.ts';
import { languageVerdict } from './language.ts';

const req = (text: string, system?: string): CanonicalRequest => ({
  shape: 'openai',
  model: 'auto',
  system,
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  stream: false,
});

describe('readInstructions', () => {
  test('requested language, from several phrasings', () => {
    assert.equal(readInstructions(req('Please respond in Spanish.')).language, 'spanish');
    assert.equal(readInstructions(req('Translate this English text into German: hello')).language, 'german');
    assert.equal(readInstructions(req('Translate from French to English: bonjour')).language, 'english');
    assert.equal(readInstructions(req('Answer only in Japanese')).language, 'japanese');
    assert.equal(readInstructions(req('Write it in Mandarin')).language, 'chinese');
    assert.equal(readInstructions(req('hi', 'Always reply in Italian.')).language, 'italian');
    assert.equal(readInstructions(req('What do the French eat for breakfast?')).language, null);
  });

  test('the newest user message wins over the system prompt', () => {
    assert.equal(readInstructions(req('Answer in Dutch', 'Always reply in Italian.')).language, 'dutch');
  });

  test('length limits in digits and words', () => {
    assert.deepEqual(readInstructions(req('Describe Rome in 10 words.')).limits, [{ unit: 'word', max: 10, phrase: 'in 10 words' }]);
    assert.deepEqual(readInstructions(req('Summarise in no more than three sentences')).limits.map((l) => [l.unit, l.max]), [['sentence', 3]]);
    assert.deepEqual(readInstructions(req('Give a one-word answer: colour of the sky')).limits.map((l) => [l.unit, l.max]), [['word', 1]]);
    assert.deepEqual(readInstructions(req('Use at most 5 bullet points')).limits.map((l) => [l.unit, l.max]), [['bullet', 5]]);
    assert.deepEqual(readInstructions(req('Tell me about words and sentences')).limits, []);
  });

  test('JSON asked for in words', () => {
    assert.equal(readInstructions(req('Return JSON with name and age')).jsonInWords, true);
    assert.equal(readInstructions(req('Output a JSON object')).jsonInWords, true);
    assert.equal(readInstructions(req('What is JSON?')).jsonInWords, false);
  });

  test('only the head and tail of a long message are read', () => {
    const middle = 'x'.repeat(INSTRUCTION_HEAD + INSTRUCTION_TAIL + 100);
    assert.equal(readInstructions(req(`${middle.slice(0, INSTRUCTION_HEAD + 50)} respond in French ${middle}`)).language, null);
    assert.equal(readInstructions(req(`${middle} respond in French`)).language, 'french');
    assert.equal(readInstructions(req(`Respond in French ${middle}`)).language, 'french');
  });
});

describe('languageVerdict', () => {
  test('Latin-script languages by stopwords', () => {
    assert.equal(languageVerdict('Le chat est sur la table et il dort dans le salon avec les enfants.', 'french'), 'match');
    assert.equal(languageVerdict('The cat is on the table and it sleeps in the living room with the kids.', 'french'), 'mismatch');
    assert.equal(languageVerdict('El gato está en la mesa y duerme con los niños por la tarde.', 'spanish'), 'match');
    assert.equal(languageVerdict('Die Katze ist auf dem Tisch und sie schläft mit den Kindern.', 'german'), 'match');
    assert.equal(languageVerdict('The cat is on the table and it is asleep with the children.', 'english'), 'match');
  });

  test('script languages by share of letters', () => {
    assert.equal(languageVerdict('Кошка сидит на столе и спит рядом с детьми весь день.', 'russian'), 'match');
    assert.equal(languageVerdict('The cat sits on the table and sleeps next to the children.', 'russian'), 'mismatch');
    assert.equal(languageVerdict('猫はテーブルの上にいて、子供たちと一緒に寝ています。', 'japanese'), 'match');
    assert.equal(languageVerdict('猫在桌子上，和孩子们一起睡觉，整个下午都很安静。', 'chinese'), 'match');
    assert.equal(languageVerdict('猫はテーブルの上にいて、子供たちと一緒に寝ています。', 'chinese'), 'mismatch');
    assert.equal(languageVerdict('고양이가 테이블 위에서 아이들과 함께 자고 있습니다.', 'korean'), 'match');
  });

  test('too little prose is unknown, never a mismatch', () => {
    assert.equal(languageVerdict('42', 'french'), 'unknown');
    assert.equal(languageVerdict('{"a": 1, "b": [2, 3]}', 'german'), 'unknown');
    assert.equal(languageVerdict('Paris Berlin Madrid Rome Lisbon Vienna', 'french'), 'unknown');
  });

  test('an answer in another script is a mismatch for a Latin language', () => {
    assert.equal(languageVerdict('Кошка сидит на столе и спит рядом с детьми весь день.', 'english'), 'mismatch');
  });
});
