import { describe, expect, it } from 'vitest';
import { safeNext, signInUrl } from './signInUrl';

describe('sign-in address and next', () => {
  it('keeps a path of this site, with its query', () => {
    expect(safeNext('/users?page=2#x')).toBe('/users?page=2#x');
    expect(signInUrl('/users?page=2')).toBe('/auth/sign-in?next=%2Fusers%3Fpage%3D2');
    expect(signInUrl('/')).toBe('/auth/sign-in');
    expect(signInUrl()).toBe('/auth/sign-in');
  });

  it('never leaves the site nor loops through a light page', () => {
    for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'users', '', null, undefined, '/auth/sign-in?next=/x', '/minha-conta', '/teste/abc', 'javascript:alert(1)', '/.//evil.example', '/a/..//evil.example', '/%2e//evil.example', '/./\\evil.example']) {
      expect(safeNext(bad)).toBe('/');
    }
  });
});
