import { describe, expect, it } from 'vitest';
import { hasVisibleCharacter, stripBidiControls, visibleText } from '../../src/schemas/visible-text.ts';

describe('bidi controls are stripped from user text', () => {
  it.each([
    ['report\u202excod.pdf', 'reportxcod.pdf'],
    ['a\u202ab\u202bc\u202cd\u202de', 'abcde'],
    ['\u2066x\u2067y\u2068z\u2069', 'xyz'],
    ['l\u200er\u200fa\u061cm', 'lram'],
  ])('%j becomes %j', (input, output) => {
    expect(stripBidiControls(input)).toBe(output);
  });

  it('leaves right-to-left and other scripts as written', () => {
    for (const text of ['طلب مراجعة', 'שלום', '申请表', 'Zoë 😀', 'a\u200bb']) expect(stripBidiControls(text)).toBe(text);
  });
});

describe('visible text', () => {
  it.each(['a', '申', 'ع', '1', '!', '😀', ' x ', '\u2801'])('%j can be seen', (text) => {
    expect(hasVisibleCharacter(text)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['spaces', ' \t\u00a0\u3000'],
    ['zero-width space, joiners, word joiner, BOM', '\u200b\u200c\u200d\u2060\ufeff'],
    ['Hangul fillers', '\u3164\u115f\u1160\uffa0'],
    ['the Braille blank', '\u2800'],
    ['the musical null notehead', '\u{1d159}'],
    ['a combining mark alone', '\u0301'],
    ['bidi controls', '\u202e\u2066'],
  ])('%s cannot', (_name, text) => {
    expect(hasVisibleCharacter(text)).toBe(false);
  });
});

describe('a visibleText field', () => {
  const field = visibleText('LabelText', { max: 5 });
  const issues = (value: unknown) => {
    const result = field.safeParse(value);
    return result.success ? [] : result.error.issues.map((issue) => issue.message);
  };

  it('strips bidi controls and trims before counting', () => {
    expect(field.parse('  \u202eabcde\u202c  ')).toBe('abcde');
  });

  it('names the field: required, nothing visible, too long (one message each)', () => {
    expect(issues('   ')).toEqual(['LabelText: required']);
    expect(issues('\u200b\u200b')).toEqual(['LabelText: must contain visible characters']);
    expect(issues('\u202e\u202e')).toEqual(['LabelText: required']);
    expect(issues('abcdef')).toEqual(['LabelText: at most 5 characters']);
  });

  it('takes an empty value only when allowed, never an invisible one', () => {
    const clearable = visibleText('ClientName', { allowEmpty: true });
    expect(clearable.parse('')).toBe('');
    expect(clearable.safeParse('\u3164').success).toBe(false);
  });
});
