import { sampleClients, startOldPanelStandin } from './old-panel.ts';
import { startP2pStandin } from './p2p-server.ts';

// `npm run dev:standins`: the P2P server and the old P2P panel stand-ins for a person trying the
// panel (README: "Trying the P2P features"). Ports: STANDIN_P2P_PORT (4010), STANDIN_OLD_PORT (4020).

const key = process.env.STANDIN_P2P_KEY ?? 'dev-p2p-key';
const p2p = await startP2pStandin({ port: Number(process.env.STANDIN_P2P_PORT ?? 4010), key, verbose: true });
const old = await startOldPanelStandin({
  port: Number(process.env.STANDIN_OLD_PORT ?? 4020),
  verbose: true,
  accounts: [
    { username: 'antigo', password: 'senha-antiga', credits: 25, clients: sampleClients('cliente', 8) },
    { username: 'antigo2', password: 'senha-antiga', credits: 10, clients: [] },
  ],
});

console.log(`
  P2P server stand-in:    ${p2p.url}  (bearer key "${key}")
  Old P2P panel stand-in: ${old.url}  (users "antigo" and "antigo2", password "senha-antiga")

  Start the panel pointed at them, in another terminal:

    P2P_API_URL=${p2p.url} P2P_API_KEY=${key} OLD_P2P_URL=${old.url} npm start

  Every request they receive is printed here. Ctrl+C stops them.
`);

const stop = async () => {
  await Promise.all([p2p.close(), old.close()]);
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
