/**
 * An esbuild plugin for the functions that bundle samlify (the assertion consumer): samlify
 * without the code that a consumer of signed, unencrypted assertions over HTTP-POST never runs.
 * samlify's libsaml imports two packages for paths Tessera does not take:
 * - `node-rsa` (with `asn1`, ~59 KiB) signs and verifies the detached signatures of the
 *   HTTP-Redirect and SimpleSign bindings (`constructMessageSignature`,
 *   `verifyMessageSignature`). Tessera writes and signs its AuthnRequest itself
 *   (shared/identity/sso/saml-login.ts) and consumes responses only with the `post` binding,
 *   whose flow verifies XML signatures with xml-crypto instead.
 * - `@authenio/xml-encryption` (with its own `xpath`, ~83 KiB) encrypts and decrypts assertions.
 *   samlify decrypts only when the IdP entity is set up with `isAssertionEncrypted`, which
 *   shared/identity/sso/saml-entities.ts never sets, and saml-response.ts refuses a response
 *   holding an EncryptedAssertion before samlify sees it.
 * - samlify's binding modules (post, redirect, simplesign, ~28 KiB) write requests and responses
 *   (`createLoginRequest`, `createLoginResponse`, `createLogout*`); the consumer only parses, in
 *   flow.js, which does not import them. The `xml` package writes metadata when an entity is
 *   given settings instead of metadata; Tessera gives both entities their metadata document.
 * All become stubs that throw, so a path that did reach them fails loudly instead of running.
 *
 * samlify also carries `xpath` three times (0.0.34 itself, 0.0.33 pinned by xml-crypto, 0.0.32
 * by xml-encryption). Here every `xpath` import resolves to the project's top-level copy (the one
 * samlify declares). xml-crypto calls only `select`, `select1` and `selectWithResolver` with
 * child, descendant and attribute steps, `local-name()`/`namespace-uri()` tests, `text()` and
 * `comment()`; what 0.0.34 changed is elsewhere: namespace-axis nodes, document order before
 * positional predicates on reverse axes, and argument checks that throw where 0.0.33 failed
 * later (an empty expression throws in both). test/infra/saml-consumer-bundle.test.ts runs the
 * bundled consumer on signed responses and checks that the stubs throw when reached.
 */
import type { Plugin } from 'esbuild';

const NAMESPACE = 'samlify-unreachable';
const UNREACHABLE = /^(node-rsa|@authenio\/xml-encryption)$/;
const BINDING_MODULE = /[\\/]samlify[\\/]build[\\/]src[\\/]binding-(post|redirect|simplesign)\.js$/;
const SAMLIFY_MODULE = /[\\/]samlify[\\/]build[\\/]/;

const refused = (what: string) => `throw new Error('Tessera bundles samlify without ${what} (infra/samlify-post-consumer-plugin.ts)')`;

/** Each stub keeps the shape samlify calls: node-rsa's constructor, the encryption functions, the metadata writer. */
const STUBS: Readonly<Record<string, string>> = {
  'node-rsa': `module.exports = function NodeRSA() { ${refused('Redirect-binding signatures')} };`,
  '@authenio/xml-encryption': ['encrypt', 'decrypt', 'encryptKeyInfo', 'decryptKeyInfo'].map((name) => `exports.${name} = function () { ${refused('assertion encryption')} };`).join('\n'),
  xml: `module.exports = function xml() { ${refused('metadata writing')} };`,
};

/** Each binding module's default export (marked as an ES module's, as samlify's TypeScript build imports it): the message writers of its binding. */
const BINDING_WRITERS: Readonly<Record<string, readonly string[]>> = {
  post: ['base64LoginRequest', 'base64LoginResponse', 'base64LogoutRequest', 'base64LogoutResponse'],
  redirect: ['loginRequestRedirectURL', 'loginResponseRedirectURL', 'logoutRequestRedirectURL', 'logoutResponseRedirectURL'],
  simplesign: ['base64LoginRequest', 'base64LoginResponse', 'base64LogoutRequest', 'base64LogoutResponse'],
};

const bindingStub = (binding: string) =>
  `Object.defineProperty(exports, '__esModule', { value: true });\nexports.default = { ${BINDING_WRITERS[binding]!.map((name) => `${name}() { ${refused('message writing')} }`).join(', ')} };`;

/** Marks the resolution this plugin asks esbuild for, so that it does not redirect itself. */
interface TopLevelResolution {
  samlifyTopLevelXpath: true;
}

export const samlifyPostConsumer: Plugin = {
  name: 'samlify-post-consumer',
  setup(build) {
    build.onResolve({ filter: UNREACHABLE }, (args) => ({ path: args.path, namespace: NAMESPACE }));
    build.onResolve({ filter: /^xml$/ }, (args) => (SAMLIFY_MODULE.test(args.importer) ? { path: args.path, namespace: NAMESPACE } : undefined));
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({ contents: STUBS[args.path], loader: 'js' }));
    build.onLoad({ filter: BINDING_MODULE }, (args) => ({ contents: bindingStub(BINDING_MODULE.exec(args.path)![1]!), loader: 'js' }));
    build.onResolve({ filter: /^xpath$/ }, async (args) => {
      if ((args.pluginData as TopLevelResolution | undefined)?.samlifyTopLevelXpath) return undefined;
      const pluginData: TopLevelResolution = { samlifyTopLevelXpath: true };
      // Resolved from the working directory (the project root), as an import of the project's own would be.
      const topLevel = await build.resolve('xpath', { kind: args.kind, resolveDir: build.initialOptions.absWorkingDir ?? process.cwd(), pluginData });
      return topLevel.errors.length > 0 ? { errors: topLevel.errors } : { path: topLevel.path };
    });
  },
};
