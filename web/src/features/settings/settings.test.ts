import { describe, expect, it } from 'vitest';
import '../../i18n';
import { settingError } from './SettingsPage';

describe('settings validation', () => {
  it('checks ranges, URLs and domains; empty links are allowed', () => {
    expect(settingError('user_limit_screen', 0)).not.toBeNull();
    expect(settingError('user_limit_screen', 3)).toBeNull();
    expect(settingError('trial_limit_per_day', '1.5')).not.toBeNull();
    expect(settingError('chat_group_url', '')).toBeNull();
    expect(settingError('chat_group_url', 'javascript:alert(1)')).not.toBeNull();
    expect(settingError('chat_group_url', 'https://chat.example.com/g/1')).toBeNull();
    expect(settingError('main_domain', 'https://tv.example.com')).toBeNull();
    expect(settingError('p2p_email_domain', 'example')).not.toBeNull();
    expect(settingError('migration_package_adult', '')).not.toBeNull();
  });
});
