/**
 * SimpleSAMLphp 1.19 (Debian's `simplesamlphp` package) as a real third-party SAML IdP on
 * loopback: PHP's built-in web server (`php -S`, no Apache) over the package's `www/`, with a
 * configuration directory of this run (`SIMPLESAMLPHP_CONFIG_DIR`): the package's own
 * `config.php` defaults where they matter, the out-of-the-box `exampleauth:UserPass` source,
 * a key and certificate made for the run, and the SP metadata registered in
 * `saml20-sp-remote.php` the way SimpleSAMLphp's metadata converter writes it (its own
 * SAMLParser, run with `php`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpClient } from './http-client';
import type { TestTenant } from './identity-fixtures';
import { signingIdentity } from './saml-idp';

/** Where Debian's package puts SimpleSAMLphp. */
export const SIMPLESAMLPHP_HOME = '/usr/share/simplesamlphp';

/** Debian keeps the attribute maps with the configuration it ships. */
const ATTRIBUTE_MAP_DIR = '/etc/simplesamlphp/attributemap/';

/** Whether `php` runs here (and SimpleSAMLphp is installed); the reason when not. */
function simpleSamlPhpMissing(): string | undefined {
  const php = spawnSync('php', ['-r', 'echo extension_loaded("dom") ? "ok" : "no-dom";'], { encoding: 'utf8' });
  if (php.error) return 'php was not found (apt-get install simplesamlphp php-cli php-xml)';
  if (php.stdout !== 'ok') return 'php has no XML support (apt-get install php-xml)';
  if (spawnSync('test', ['-f', path.join(SIMPLESAMLPHP_HOME, 'lib', '_autoload.php')]).status !== 0) return `SimpleSAMLphp is not installed under ${SIMPLESAMLPHP_HOME} (apt-get install simplesamlphp)`;
  return undefined;
}

/**
 * What a test file that needs SimpleSAMLphp does first: in CI a missing install is an error
 * (the test must run there), elsewhere the file's tests are skipped with a warning. Returns why
 * it is missing, for `describe.skipIf`.
 */
export function requireSimpleSamlPhp(test: string): string | undefined {
  const missing = simpleSamlPhpMissing();
  if (missing && process.env.CI) throw new Error(`${test} must run in CI, but ${missing}`);
  if (missing) console.warn(`SKIPPED: ${test}: ${missing}`);
  return missing;
}

/** A user of the exampleauth:UserPass source: `username:password` and its attributes. */
export interface ExampleUser {
  username: string;
  password: string;
  attributes: Record<string, string[]>;
}

export interface SimpleSamlPhp {
  url: string;
  /** The hosted IdP's entity id (SimpleSAMLphp's default: its metadata URL). */
  entityId: string;
  /** The IdP metadata XML as SimpleSAMLphp publishes it. */
  idpMetadata(): Promise<string>;
  /** Rewrites `saml20-idp-hosted.php`: the stock entry plus `extraPhp` array entries (e.g. `'attributes.NameFormat' => ...`). */
  configureIdp(extraPhp?: string): Promise<void>;
  /** Registers an SP from its metadata XML, as the metadata converter does, plus `extraPhp` array entries. */
  registerSp(spMetadataXml: string, extraPhp?: string): Promise<void>;
  /** SimpleSAMLphp's own log (for failure messages). */
  log(): Promise<string>;
  close(): Promise<void>;
}

const phpString = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const phpArray = (values: string[]) => `[${values.map(phpString).join(', ')}]`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function runPhp(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('php', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

export async function startSimpleSamlPhp(options: { users: ExampleUser[] }): Promise<SimpleSamlPhp> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tessera-simplesamlphp-'));
  for (const sub of ['metadata', 'cert', 'log', 'data', 'tmp', 'sessions']) await mkdir(path.join(dir, sub));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const key = signingIdentity('simplesamlphp-idp');
  await writeFile(path.join(dir, 'cert', 'idp.pem'), key.privateKey);
  await writeFile(path.join(dir, 'cert', 'idp.crt'), key.cert);

  // The package's config.php with what a deployment must set (URL, directories, secrets) and
  // what plain http on loopback needs (no Secure-only cookies); everything else as shipped.
  await writeFile(
    path.join(dir, 'config.php'),
    `<?php
$config = [
    'baseurlpath' => ${phpString(`${url}/`)},
    'certdir' => ${phpString(path.join(dir, 'cert'))},
    'loggingdir' => ${phpString(path.join(dir, 'log'))},
    'datadir' => ${phpString(path.join(dir, 'data'))},
    'tempdir' => ${phpString(path.join(dir, 'tmp'))},
    'metadatadir' => ${phpString(path.join(dir, 'metadata'))},
    // The package's own maps (name2oid, ...), where its config.php points.
    'attributenamemapdir' => ${phpString(ATTRIBUTE_MAP_DIR)},
    'secretsalt' => ${phpString(randomBytes(16).toString('hex'))},
    'auth.adminpassword' => ${phpString(randomBytes(16).toString('hex'))},
    'technicalcontact_name' => 'Administrator',
    'technicalcontact_email' => 'na@example.org',
    'timezone' => 'UTC',
    'admin.checkforupdates' => false,
    'enable.saml20-idp' => true,
    'module.enable' => ['exampleauth' => true, 'core' => true, 'saml' => true],
    'logging.level' => SimpleSAML\\Logger::INFO,
    'logging.handler' => 'file',
    'logging.logfile' => 'simplesamlphp.log',
    'statistics.out' => [],
    'showerrors' => true,
    'session.cookie.secure' => false,
    'session.cookie.samesite' => null,
    'language.cookie.secure' => false,
    'session.phpsession.savepath' => ${phpString(path.join(dir, 'sessions'))},
    'store.type' => 'phpsession',
    'metadata.sources' => [['type' => 'flatfile']],
    'authproc.idp' => [
        30 => 'core:LanguageAdaptor',
        50 => 'core:AttributeLimit',
        99 => 'core:LanguageAdaptor',
    ],
];
`,
  );
  await writeFile(
    path.join(dir, 'authsources.php'),
    `<?php
$config = [
    'admin' => ['core:AdminPassword'],
    'example-userpass' => [
        'exampleauth:UserPass',
${options.users.map((u) => `        ${phpString(`${u.username}:${u.password}`)} => [${Object.entries(u.attributes).map(([k, v]) => `${phpString(k)} => ${phpArray(v)}`).join(', ')}],`).join('\n')}
    ],
];
`,
  );
  await writeFile(path.join(dir, 'metadata', 'saml20-sp-remote.php'), '<?php\n');

  const configureIdp = async (extraPhp = '') =>
    writeFile(
      path.join(dir, 'metadata', 'saml20-idp-hosted.php'),
      // The stock template's entry (metadata-templates/saml20-idp-hosted.php).
      `<?php
$metadata['__DYNAMIC:1__'] = [
    'host' => '__DEFAULT__',
    'privatekey' => 'idp.pem',
    'certificate' => 'idp.crt',
    'auth' => 'example-userpass',
${extraPhp}
];
`,
    );
  await configureIdp();

  const env = { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: dir };
  const server: ChildProcess = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', path.join(SIMPLESAMLPHP_HOME, 'www'), '-d', 'opcache.enable=0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let serverOutput = '';
  server.stdout!.on('data', (c: Buffer) => (serverOutput = (serverOutput + c.toString()).slice(-8_000)));
  server.stderr!.on('data', (c: Buffer) => (serverOutput = (serverOutput + c.toString()).slice(-8_000)));
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));

  const close = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };

  const metadataUrl = `${url}/saml2/idp/metadata.php`;
  // Ready when the IdP answers its metadata; a server that died says why.
  for (;;) {
    if (server.exitCode !== null) {
      await close();
      throw new Error(`php -S exited before answering:\n${serverOutput}`);
    }
    const res = await fetch(metadataUrl).catch(() => undefined);
    if (res?.ok) break;
    await sleep(50);
  }

  return {
    url,
    entityId: metadataUrl,
    async idpMetadata() {
      const res = await fetch(metadataUrl);
      if (!res.ok) throw new Error(`SimpleSAMLphp metadata: ${res.status} ${await res.text()}`);
      return res.text();
    },
    configureIdp,
    async registerSp(spMetadataXml, extraPhp = '') {
      const xmlFile = path.join(dir, 'sp-metadata.xml');
      await writeFile(xmlFile, spMetadataXml);
      // What www/admin/metadata-converter.php does with pasted XML: SAMLParser → var_export.
      const converter = path.join(dir, 'convert.php');
      await writeFile(
        converter,
        `<?php
require ${phpString(path.join(SIMPLESAMLPHP_HOME, 'lib', '_autoload.php'))};
$out = "<?php\\n";
foreach (\\SimpleSAML\\Metadata\\SAMLParser::parseDescriptorsString(file_get_contents($argv[1])) as $entity) {
    $md = $entity->getMetadata20SP();
    if ($md === null) continue;
    $entityId = $md['entityid'];
    unset($md['entityid']);
    $out .= '$metadata[' . var_export($entityId, true) . '] = ' . var_export($md, true) . ";\\n";
}
echo $out;
`,
      );
      const converted = await runPhp([converter, xmlFile], env);
      if (converted.code !== 0 || !converted.output.includes('$metadata[')) throw new Error(`SimpleSAMLphp could not read the SP metadata:\n${converted.output}`);
      const extra = extraPhp ? `foreach ($metadata as $id => $entry) { $metadata[$id] = array_merge($entry, [\n${extraPhp}\n]); }\n` : '';
      await writeFile(path.join(dir, 'metadata', 'saml20-sp-remote.php'), `${converted.output}${extra}`);
    },
    log: () => readFile(path.join(dir, 'log', 'simplesamlphp.log'), 'utf8').catch(() => serverOutput),
    close,
  };
}

/**
 * SimpleSAMLphp as the tenant's active SAML IdP, both ends set up as an admin would: its
 * metadata saved in the tenant's IdP configuration (uid as the subject: SimpleSAMLphp's default
 * NameID is transient), and Tessera's SP metadata registered at the IdP. `emailDomains` are the
 * domains discovery sends to the IdP (none: the tenant's users keep their passwords).
 */
export async function startTenantSimpleSamlPhp(
  http: HttpClient,
  tenant: TestTenant,
  adminToken: string,
  options: { users: ExampleUser[]; emailDomains: string[]; allowedRedirectUris: string[] },
): Promise<SimpleSamlPhp> {
  const idp = await startSimpleSamlPhp({ users: options.users });
  try {
    const created = await http.request('POST', `/v1/tenants/${tenant.tenantId}/idp`, {
      token: adminToken,
      body: { provider_type: 'saml', saml_metadata: await idp.idpMetadata(), saml_subject_attribute: 'uid', email_domains: options.emailDomains, allowed_redirect_uris: options.allowedRedirectUris, active: true },
    });
    if (created.status !== 201) throw new Error(`the tenant's SAML IdP configuration was refused: ${created.status} ${created.text}`);
    const spMetadata = await http.request('GET', `/v1/auth/sso/${tenant.slug}/metadata`);
    if (spMetadata.status !== 200) throw new Error(`Tessera's SP metadata: ${spMetadata.status} ${spMetadata.text}`);
    await idp.registerSp(spMetadata.text);
    return idp;
  } catch (error) {
    await idp.close();
    throw error;
  }
}
