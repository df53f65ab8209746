import { describe, expect, it } from 'vitest';
import { navTestId, visibleMenu } from './menu';

describe('sidebar menu', () => {
  it('shows the admin group to admins only', () => {
    expect(visibleMenu('admin').map((g) => g.id)).toContain('admin');
    expect(visibleMenu('master').map((g) => g.id)).not.toContain('admin');
    expect(visibleMenu('reseller').map((g) => g.id)).not.toContain('admin');
    expect(visibleMenu(undefined)).toEqual([]);
  });

  it('always shows the dashboard and the reports', () => {
    for (const role of ['admin', 'master', 'reseller'] as const) {
      expect(visibleMenu(role).flatMap((g) => g.entries.map((e) => e.path))).toContain('/');
      expect(visibleMenu(role).flatMap((g) => g.entries.map((e) => e.path))).toContain('/reports');
    }
  });

  it('shows content requests to those who may ask (masters and admins), not to plain resellers', () => {
    const paths = (role: 'admin' | 'master' | 'reseller') => visibleMenu(role).flatMap((g) => g.entries.map((e) => e.path));
    expect(paths('admin')).toContain('/vods');
    expect(paths('master')).toContain('/vods');
    expect(paths('reseller')).not.toContain('/vods');
  });

  it('shows the Telegram bot to every role (each account has its own)', () => {
    for (const role of ['admin', 'master', 'reseller'] as const) {
      expect(visibleMenu(role).flatMap((g) => g.entries.map((e) => e.path))).toContain('/telegram');
    }
  });

  it('derives test ids from paths', () => {
    expect(navTestId('/')).toBe('nav-dashboard');
    expect(navTestId('/packages')).toBe('nav-packages');
    expect(navTestId('/users/add_trial')).toBe('nav-users-add_trial');
  });
});
