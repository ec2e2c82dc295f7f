/** Request and response schemas of a tenant's email domain endpoints. */
import * as z from 'zod/mini';
import { idOf, TimestampSchema } from '../schemas/field-schemas';
import { DomainName } from './schemas';

export const AddEmailDomainBodySchema = z.strictObject({ domain: DomainName });

export const EmailDomainPathSchema = z.strictObject({ id: idOf('ten'), domain: DomainName });

export const EmailDomainSchema = z
  .object({
    domain: z.string(),
    status: z.enum(['pending', 'verified', 'failed']),
    method: z.enum(['dns_txt', 'operator']).check(z.meta({ description: 'How it was proven: the DNS TXT challenge, or the operator at tenant creation (never re-checked)' })),
    verification: z.object({
      type: z.literal('dns_txt'),
      name: z.string().check(z.meta({ description: 'The TXT record to publish: _tessera-challenge.<domain>' })),
      value: z.string().check(z.meta({ description: 'The value it must hold: tessera-verification=<random>' })),
    }),
    verified_at: z.nullable(TimestampSchema),
    checked_at: z.nullable(TimestampSchema),
    last_failure: z.nullable(z.string()).check(z.meta({ description: 'What the last failed check found' })),
    created_at: TimestampSchema,
  })
  .register(z.globalRegistry, { id: 'EmailDomain' });

export const EmailDomainListSchema = z.object({ domains: z.array(EmailDomainSchema) });
