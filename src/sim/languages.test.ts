// The simulator's reading of a requested language, and prose in it that the product's own
// language heuristic recognises (the two are written independently).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { proseIn, requestedLanguage, SIM_LANGUAGES } from './languages.ts';
import { languageVerdict } from '../core/quality/language.ts';

describe('requested language', () => {
  it('is read from English instructions and from native ones', () => {
    assert.equal(requestedLanguage('Translate into French: good morning'), 'french');
    assert.equal(requestedLanguage('Please answer in German, briefly.'), 'german');
    assert.equal(requestedLanguage('translate the following text to spanish'), 'spanish');
    assert.equal(requestedLanguage('Réponds en français, s’il te plaît.'), 'french');
    assert.equal(requestedLanguage('Antworte bitte auf Deutsch.'), 'german');
    assert.equal(requestedLanguage('日本語で答えてください'), 'japanese');
    assert.equal(requestedLanguage('请用中文回答'), 'chinese');
    assert.equal(requestedLanguage('Reply in Mandarin'), 'chinese');
  });
  it('is none when no language is asked for', () => {
    assert.equal(requestedLanguage('Explain French cooking in three sentences.'), null);
    assert.equal(requestedLanguage('What is the capital of Germany?'), null);
    assert.equal(requestedLanguage('Hello'), null);
  });
});

describe('prose in a language', () => {
  for (const lang of SIM_LANGUAGES) {
    it(`${lang}: recognised as ${lang}, short or long, with or without keywords`, () => {
      for (const tokens of [24, 400]) {
        for (const words of [[], ['weather', 'beach']]) {
          const text = proseIn(lang, words, tokens);
          assert.equal(languageVerdict(text, lang), 'match', text);
          assert.ok(text.length >= tokens * 4 * 0.5);
        }
      }
    });
  }
});
