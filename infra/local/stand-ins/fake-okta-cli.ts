/**
 * `npm run fake-okta [-- <port>]`: the local Okta the tests use, alone, for trying an Okta
 * connection by hand beside `npm start` (`npm run demo` starts its own). It answers the reads the Okta connector makes, for the one API token it
 * prints, with every scope granted, over a small sample org (three people, three groups, one
 * application) so that a discovery run finds something. Port 3001 unless given; Ctrl-C stops it.
 */
import { buildOrg, oktaApp, oktaGroup, oktaToken, oktaUser, startFakeOkta } from './okta';

const [alice, bob, carol] = [oktaUser(1, { login: 'alice@acme.example' }), oktaUser(2, { login: 'bob@acme.example' }), oktaUser(3, { login: 'carol@acme.example' })];
const [platform, web, sales] = [oktaGroup(1, 'eng-platform'), oktaGroup(2, 'eng-web'), oktaGroup(3, 'sales')];
const jira = oktaApp(1, 'Jira');
const org = buildOrg({
  users: [alice, bob, carol],
  groups: [platform, web, sales],
  members: { [platform.id]: [alice.id, bob.id], [web.id]: [carol.id], [sales.id]: [bob.id] },
  apps: [jira],
  appGroups: { [jira.id]: [platform.id] },
});

const port = Number(process.argv[2] ?? 3001);
const okta = await startFakeOkta({ org }, port);
console.log(`Fake Okta on ${okta.url} (API token ${oktaToken}); Ctrl-C stops`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void okta.close().then(() => process.exit(0)));
