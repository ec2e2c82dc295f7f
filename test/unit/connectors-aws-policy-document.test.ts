/** Reading IAM policy documents as GetAccountAuthorizationDetails sends them (URL-encoded JSON). */
import { describe, expect, it } from 'vitest';
import { allowGrants, decodePolicyDocument, trustedPrincipals } from '../../shared/connectors/aws/policy-document';

const encoded = (document: unknown) => encodeURIComponent(JSON.stringify(document));

describe('IAM policy documents', () => {
  it('decodes URL-encoded JSON, accepts plain JSON, and refuses anything else', () => {
    const document = { Version: '2012-10-17', Statement: { Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::b/100%' } };
    expect(decodePolicyDocument(encoded(document))).toEqual(document);
    expect(decodePolicyDocument(JSON.stringify(document))).toEqual(document);
    expect(decodePolicyDocument('%E0%A4%A')).toBeUndefined();
    expect(decodePolicyDocument('not json')).toBeUndefined();
    expect(decodePolicyDocument(undefined)).toBeUndefined();
  });

  it('collects the actions and named resources of Allow statements only, sorted, without `*`', () => {
    const grants = allowGrants(
      decodePolicyDocument(
        encoded({
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Action: ['s3:PutObject', 's3:GetObject'], Resource: ['arn:aws:s3:::b/*', 'arn:aws:s3:::a', 'arn:aws:s3:::b/*'] },
            { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: '*' },
            { Effect: 'Deny', Action: 's3:*', Resource: 'arn:aws:s3:::secret' },
          ],
        }),
      ),
    );
    expect(grants).toEqual({ actions: ['s3:GetObject', 's3:PutObject', 'sqs:SendMessage'], resources: ['arn:aws:s3:::a', 'arn:aws:s3:::b/*'], allResources: true, notAction: false });
  });

  it('treats NotResource as every resource and remembers NotAction', () => {
    expect(allowGrants({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', NotAction: 'iam:*', NotResource: 'arn:aws:s3:::x' }] })).toEqual({
      actions: [],
      resources: [],
      allResources: true,
      notAction: true,
    });
    expect(allowGrants(undefined)).toEqual({ actions: [], resources: [], allResources: false, notAction: false });
  });

  it("names a trust policy's principals by type", () => {
    const trust = {
      Version: '2012-10-17',
      Statement: [
        { Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com', 'ec2.amazonaws.com'], AWS: 'arn:aws:iam::111122223333:root' }, Action: 'sts:AssumeRole' },
        { Effect: 'Allow', Principal: { Federated: 'cognito-identity.amazonaws.com' }, Action: 'sts:AssumeRoleWithWebIdentity' },
        { Effect: 'Deny', Principal: '*', Action: 'sts:AssumeRole' },
      ],
    };
    expect(trustedPrincipals(decodePolicyDocument(encoded(trust)))).toEqual([
      'AWS:arn:aws:iam::111122223333:root',
      'Federated:cognito-identity.amazonaws.com',
      'Service:ec2.amazonaws.com',
      'Service:lambda.amazonaws.com',
    ]);
  });
});
