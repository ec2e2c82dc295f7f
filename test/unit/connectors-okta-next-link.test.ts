/**
 * Okta pages through `Link: <…>; rel="next"` (RFC 8288): the next page is followed only on the
 * org's own origin, since the request carries the API token.
 */
import { describe, expect, it } from 'vitest';
import { nextLinkOf } from '../../shared/connectors/okta/discovery';

const BASE = 'https://acme.okta.com';

describe('nextLinkOf', () => {
  it('no header, or no next among the links: no next page', () => {
    expect(nextLinkOf(null, BASE)).toBeNull();
    expect(nextLinkOf('', BASE)).toBeNull();
    expect(nextLinkOf('<https://acme.okta.com/api/v1/users?limit=2>; rel="self"', BASE)).toBeNull();
  });

  it('the path and query of the next link, quoted or not, absolute or relative, after other links', () => {
    expect(nextLinkOf('<https://acme.okta.com/api/v1/users?limit=2>; rel="self", <https://acme.okta.com/api/v1/users?after=00u2&limit=2>; rel="next"', BASE)).toBe('/api/v1/users?after=00u2&limit=2');
    expect(nextLinkOf('</api/v1/groups?after=00g1>; rel=next', BASE)).toBe('/api/v1/groups?after=00g1');
  });

  it('a next link to another origin, or one that is not a URL, is refused (false)', () => {
    expect(nextLinkOf('<https://evil.example/api/v1/users?after=x>; rel="next"', BASE)).toBe(false);
    expect(nextLinkOf('<http://acme.okta.com/api/v1/users>; rel="next"', BASE)).toBe(false);
    expect(nextLinkOf('<http://[::1>; rel="next"', BASE)).toBe(false);
  });
});
