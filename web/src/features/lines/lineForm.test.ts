import { describe, expect, it } from 'vitest';
import type { Package } from '../../api/types';
import { screensWith } from './packages';
import { EMPTY_LINE_FORM, formScreens, lineFormBody } from './LineForm';

const pkg = (max_connections: number) => ({ id: 4, max_connections }) as Package;

describe('what the line form sends', () => {
  it('leaves out empty credentials and contact (the server makes or skips them) and trims the rest', () => {
    expect(lineFormBody({ ...EMPTY_LINE_FORM, username: ' ana ', whatsapp: ' ' }, pkg(1))).toEqual({
      username: 'ana',
      password: undefined,
      package_id: 4,
      whatsapp: undefined,
      reseller_notes: undefined,
    });
  });

  it("takes the package's screens from 2 on, else the line's own", () => {
    expect(screensWith(pkg(3), 1)).toBe(3);
    expect(screensWith(pkg(1), 2)).toBe(2);
    expect(formScreens({ ...EMPTY_LINE_FORM, max_connections: '' }, pkg(1))).toBe(1);
    expect(formScreens({ ...EMPTY_LINE_FORM, max_connections: 2 }, pkg(4))).toBe(4);
  });
});
