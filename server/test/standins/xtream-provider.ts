import { startStandin } from './http-standin.ts';

export interface ProviderLine {
  username: string;
  password: string;
  exp_date: number | null;
  created_at: number;
  is_trial: boolean;
}

/**
 * Another provider's Xtream panel: GET /player_api.php?username&password answers the line's
 * user_info as Xtream-UI does (strings for numbers), or {user_info: {auth: 0}} for unknown credentials.
 */
export async function startXtreamProvider(lines: ProviderLine[] = []) {
  const standin = await startStandin((req) => {
    const url = new URL(req.url, 'http://provider');
    if (req.method !== 'GET' || url.pathname !== '/player_api.php') return { status: 404, text: 'not found' };
    const line = lines.find((l) => l.username === url.searchParams.get('username') && l.password === url.searchParams.get('password'));
    if (!line) return { json: { user_info: { auth: 0 } } };
    return {
      json: {
        user_info: {
          username: line.username,
          password: line.password,
          message: '',
          auth: 1,
          status: 'Active',
          exp_date: line.exp_date === null ? null : String(line.exp_date),
          is_trial: line.is_trial ? '1' : '0',
          active_cons: '0',
          created_at: String(line.created_at),
          max_connections: '1',
          allowed_output_formats: ['m3u8', 'ts'],
        },
        server_info: { url: 'provider.example', port: '80', server_protocol: 'http', timezone: 'America/Sao_Paulo' },
      },
    };
  });
  return Object.assign(standin, {
    lines,
    /** the playlist link the provider gave its customer */
    playlistUrl: (l: Pick<ProviderLine, 'username' | 'password'>) => `${standin.url}/get.php?username=${l.username}&password=${l.password}&type=m3u_plus&output=mpegts`,
  });
}
