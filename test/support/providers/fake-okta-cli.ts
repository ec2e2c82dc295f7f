/**
 * `npm run fake-okta [-- <port>]`: the local Okta the tests use, for trying a connection test
 * by hand (README, "Connections"). It answers the reads the Okta connector makes, for the one
 * API token it prints, with every scope granted. Port 3001 unless given; Ctrl-C stops it.
 */
import { oktaToken, startFakeOkta } from './okta';

const port = Number(process.argv[2] ?? 3001);
const okta = await startFakeOkta({}, port);
console.log(`Fake Okta on ${okta.url} (API token ${oktaToken}); Ctrl-C stops`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void okta.close().then(() => process.exit(0)));
