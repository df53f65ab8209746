import { describe, expect, it } from 'vitest';
import { unknownVariable } from './template';

describe('reminder templates', () => {
  it('names the first variable the server would refuse', () => {
    expect(unknownVariable('Olá {nome}, vence {vencimento} ({dias} dias) {link_renovacao}')).toBeUndefined();
    expect(unknownVariable('Olá {nome}, vence {quando}')).toBe('quando');
    expect(unknownVariable('{}')).toBe('');
    expect(unknownVariable('sem variáveis { soltas }')).toBeUndefined();
  });
});
