import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config';

const aws = { TESSERA_STAGE: 'aws', TESSERA_SIGNING_KEY_SECRET_ARN: 'arn:secret', TESSERA_CURSOR_KEY_SECRET_ARN: 'arn:cursor-secret', TESSERA_KMS_KEY_ARN: 'arn:key', TESSERA_AUDIT_ANCHOR_BUCKET: 'tessera-dev-anchors-111122223333' };

describe('configuration', () => {
  it('has the contract defaults in local mode', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ stage: 'local', tableName: 'tessera', port: 3000, publicUrl: 'http://127.0.0.1:3000', jwt: { accessTokenTtlSeconds: 900 } });
    expect(config.signingKeys.kind).toBe('file');
    expect(config.cursorKeys).toMatchObject({ kind: 'file', path: expect.stringMatching(/cursor-keys\.json$/) });
    expect(config.keyCacheSeconds).toBe(300);
  });

  it('refuses an access-token lifetime outside 15..60 minutes', () => {
    expect(() => loadConfig({ TESSERA_ACCESS_TOKEN_TTL_SECONDS: '600' })).toThrow(/TESSERA_ACCESS_TOKEN_TTL_SECONDS/);
    expect(() => loadConfig({ TESSERA_ACCESS_TOKEN_TTL_SECONDS: '3601' })).toThrow(/TESSERA_ACCESS_TOKEN_TTL_SECONDS/);
  });

  it('bounds the absolute session lifetime from below (10 s) and defaults it to 30 days', () => {
    expect(loadConfig({}).sessionMaxSeconds).toBe(2_592_000);
    expect(loadConfig({ TESSERA_SESSION_MAX_SECONDS: '10' }).sessionMaxSeconds).toBe(10);
    expect(() => loadConfig({ TESSERA_SESSION_MAX_SECONDS: '9' })).toThrow(/TESSERA_SESSION_MAX_SECONDS/);
    expect(() => loadConfig({ TESSERA_SESSION_MAX_SECONDS: 'a month' })).toThrow(/TESSERA_SESSION_MAX_SECONDS/);
  });

  it("says what is wrong in zod's English words (zod/mini loads no locale by itself)", () => {
    expect(() => loadConfig({ TESSERA_ACCESS_TOKEN_TTL_SECONDS: '600', TESSERA_STAGE: 'x' })).toThrow(
      'Invalid configuration: TESSERA_STAGE: Invalid option: expected one of "local"|"aws"; TESSERA_ACCESS_TOKEN_TTL_SECONDS: Too small: expected number to be >=900',
    );
  });

  it('in AWS needs the key, the secrets and the audit anchor bucket, and refuses connector endpoint overrides', () => {
    expect(loadConfig(aws)).toMatchObject({ signingKeys: { kind: 'secrets-manager' }, cursorKeys: { kind: 'secrets-manager', secretArn: 'arn:cursor-secret' }, envelopeKey: { kind: 'kms' }, auditAnchor: { kind: 's3', bucket: 'tessera-dev-anchors-111122223333' } });
    expect(() => loadConfig({ ...aws, TESSERA_AUDIT_ANCHOR_BUCKET: undefined })).toThrow(/TESSERA_AUDIT_ANCHOR_BUCKET are required in the aws stage/);
    expect(() => loadConfig({ ...aws, TESSERA_AUDIT_ANCHOR_BUCKET: 'Not_A_Bucket' })).toThrow(/TESSERA_AUDIT_ANCHOR_BUCKET: must be an S3 bucket name/);
    // Locally: an append-only file per table under the data directory.
    expect(loadConfig({ TESSERA_DATA_DIR: '/srv/tessera', TESSERA_TABLE: 'tessera_x' }).auditAnchor).toEqual({ kind: 'file', path: '/srv/tessera/audit-anchors/tessera_x.jsonl' });
    expect(() => loadConfig({ TESSERA_STAGE: 'aws' })).toThrow(/required in the aws stage/);
    expect(() => loadConfig({ ...aws, TESSERA_CURSOR_KEY_SECRET_ARN: undefined })).toThrow(/TESSERA_CURSOR_KEY_SECRET_ARN.*required in the aws stage/);
    expect(() => loadConfig({ ...aws, TESSERA_CONNECTOR_ENDPOINTS: '{"okta":"https://evil.example"}' })).toThrow(/local mode and tests only/);
    expect(() => loadConfig({ TESSERA_CONNECTOR_ENDPOINTS: '[1]' })).toThrow(/JSON object/);
  });

  it('takes connector endpoints for every connection, or for okta per org, and refuses what is not a base URL', () => {
    expect(loadConfig({}).connectors).toMatchObject({ endpoints: {}, oktaOrgs: {} });
    expect(loadConfig({ TESSERA_CONNECTOR_ENDPOINTS: '{"okta":"http://127.0.0.1:3001","sts":"http://127.0.0.1:3002"}' }).connectors).toMatchObject({
      endpoints: { okta: 'http://127.0.0.1:3001', sts: 'http://127.0.0.1:3002' },
      oktaOrgs: {},
    });
    const perOrg = loadConfig({ TESSERA_CONNECTOR_ENDPOINTS: '{"okta":{"acme.okta.com":"http://127.0.0.1:3001","globex.okta.com":"http://127.0.0.1:3002"},"iam":"http://127.0.0.1:3003"}' });
    expect(perOrg.connectors).toMatchObject({ endpoints: { iam: 'http://127.0.0.1:3003' }, oktaOrgs: { 'acme.okta.com': 'http://127.0.0.1:3001', 'globex.okta.com': 'http://127.0.0.1:3002' } });
    expect(perOrg.connectors.endpoints.okta).toBeUndefined();
    expect(() => loadConfig({ TESSERA_CONNECTOR_ENDPOINTS: '{"okta":{"https://acme.okta.com":"http://127.0.0.1:3001"}}' })).toThrow(/"https:\/\/acme.okta.com" is not an org host name/);
    expect(() => loadConfig({ TESSERA_CONNECTOR_ENDPOINTS: '{"okta":{"acme.okta.com":"127.0.0.1:3001"}}' })).toThrow(/base URL of acme.okta.com must be an http\(s\) URL/);
    expect(() => loadConfig({ TESSERA_CONNECTOR_ENDPOINTS: '{"sts":{"a.example":"http://127.0.0.1:1"}}' })).toThrow(/TESSERA_CONNECTOR_ENDPOINTS: sts: must be a JSON object of base URLs/);
    expect(() => loadConfig({ TESSERA_CONNECTOR_ENDPOINTS: '{"okta":"ftp://x"}' })).toThrow(/okta: must be a JSON object of base URLs/);
    expect(() => loadConfig({ TESSERA_CONNECTOR_ENDPOINTS: 'not json' })).toThrow(/JSON object/);
    expect(() => loadConfig({ ...aws, TESSERA_CONNECTOR_ENDPOINTS: '{"okta":{"acme.okta.com":"http://127.0.0.1:3001"}}' })).toThrow(/local mode and tests only/);
  });

  it('takes the DNS server of domain verification as ip:port, and the re-check interval', () => {
    expect(loadConfig({}).emailDomains).toEqual({ dnsResolver: undefined, dnsTimeoutMs: 3000, recheckSeconds: 86_400 });
    expect(loadConfig({ TESSERA_DNS_RESOLVER: '127.0.0.1:5353', TESSERA_DOMAIN_RECHECK_SECONDS: '0' }).emailDomains).toMatchObject({ dnsResolver: '127.0.0.1:5353', recheckSeconds: 0 });
    expect(loadConfig({ TESSERA_DNS_RESOLVER: '[::1]:53' }).emailDomains.dnsResolver).toBe('[::1]:53');
    for (const bad of ['127.0.0.1', 'dns.example:53', '::1:53']) expect(() => loadConfig({ TESSERA_DNS_RESOLVER: bad }), bad).toThrow(/TESSERA_DNS_RESOLVER/);
    expect(() => loadConfig({ TESSERA_DNS_TIMEOUT_MS: '50' })).toThrow(/TESSERA_DNS_TIMEOUT_MS/);
  });

  it('slices exports (120 s, at most 500 jobs by default; 0 s in tests) in parts of 8 MiB, smaller parts only for a local S3', () => {
    expect(loadConfig({})).toMatchObject({ exportSliceSeconds: 120, exportMaxSlices: 500, exportPartBytes: 8 * 1024 * 1024 });
    expect(loadConfig({ TESSERA_EXPORT_SLICE_SECONDS: '0', TESSERA_EXPORT_MAX_SLICES: '3' })).toMatchObject({ exportSliceSeconds: 0, exportMaxSlices: 3 });
    expect(() => loadConfig({ TESSERA_EXPORT_SLICE_SECONDS: '841' })).toThrow(/TESSERA_EXPORT_SLICE_SECONDS/);
    expect(() => loadConfig({ TESSERA_EXPORT_MAX_SLICES: '0' })).toThrow(/TESSERA_EXPORT_MAX_SLICES/);
    expect(loadConfig({ TESSERA_EXPORT_PART_BYTES: String(5 * 1024 * 1024) }).exportPartBytes).toBe(5 * 1024 * 1024);
    expect(() => loadConfig({ ...aws, TESSERA_EXPORT_PART_BYTES: '1024' })).toThrow(/TESSERA_EXPORT_PART_BYTES under 5 MiB is only for a local S3/);
    expect(loadConfig({ ...aws, TESSERA_EXPORT_PART_BYTES: '1024', AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:4566' }).exportPartBytes).toBe(1024);
  });
});
