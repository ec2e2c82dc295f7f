/** `@authenio/samlify-xmllint-wasm` ships no declarations: samlify's schema validator interface. */
declare module '@authenio/samlify-xmllint-wasm' {
  /** Resolves when the XML is valid against the SAML 2.0 schemas, rejects otherwise. */
  export function validate(xml: string): Promise<boolean>;
}
