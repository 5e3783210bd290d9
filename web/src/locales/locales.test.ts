import { describe, expect, it } from 'vitest';
import { en } from './en';
import { fr } from './fr';
import { it as italian } from './it';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flatten(value, path));
  }
  return out;
}

const catalogues = { en: flatten(en), fr: flatten(fr), it: flatten(italian) };
const reference = Object.keys(catalogues.en).sort();

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();
}

describe('translations', () => {
  for (const [language, catalogue] of Object.entries(catalogues)) {
    it(`${language} has exactly the English keys`, () => {
      const keys = Object.keys(catalogue).sort();
      expect(reference.filter((key) => !keys.includes(key)), 'missing').toEqual([]);
      expect(keys.filter((key) => !reference.includes(key)), 'extra').toEqual([]);
    });

    it(`${language} has no empty text and keeps the placeholders`, () => {
      for (const key of reference) {
        expect(catalogue[key]?.trim(), key).toBeTruthy();
        expect(placeholders(catalogue[key]), key).toEqual(placeholders(catalogues.en[key]));
      }
    });
  }

  it('every key the source code names exists', () => {
    const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../locales/**'], {
      query: '?raw',
      import: 'default',
      eager: true,
    }) as Record<string, string>;
    const known = new Set(reference.map((key) => key.replace(/_(one|other)$/, '')));
    const missing: string[] = [];
    let seen = 0;
    for (const [file, text] of Object.entries(sources)) {
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z]+\.[a-zA-Z.]+)'/g)) {
        seen += 1;
        if (!known.has(match[1])) missing.push(`${file}: ${match[1]}`);
      }
      for (const match of text.matchAll(/(?:title|subheader|caption): '([a-zA-Z]+\.[a-zA-Z.]+)'/g)) {
        if (!known.has(match[1])) missing.push(`${file}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
    expect(seen).toBeGreaterThan(100);
  });

  it('the register title is the one the spec gives', () => {
    expect(en.auth.registerTitle).toBe('Manage the job more effectively with Minimal');
    expect(en.app.needHelp).toBe('Need help?');
  });
});
