/**
 * A real DNS server on loopback (dns2, UDP) answering from a zone the test edits: a name maps
 * to its TXT values ([] = the name exists without TXT), or to an outage ('servfail' answers
 * SERVFAIL, 'silent' never answers); a name not in the zone is NXDOMAIN. The host asks it
 * through `TESSERA_DNS_RESOLVER`.
 */
import dns2 from 'dns2';

const { Packet } = dns2;

export type ZoneEntry = string[] | 'servfail' | 'silent';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, the value of TESSERA_DNS_RESOLVER. */
  address: string;
  zone: Map<string, ZoneEntry>;
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, ZoneEntry>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0]!;
      const entry = zone.get(question.name.toLowerCase());
      if (entry === 'silent') return;
      if (entry === 'servfail') response.header.rcode = Packet.RCODE.SERVFAIL;
      else if (entry === undefined) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else if (question.type === Packet.TYPE.TXT) {
        for (const data of entry) response.answers.push(Packet.createResourceFromQuestion(question, { type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data }));
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { address: `127.0.0.1:${addresses.udp!.port}`, zone, close: () => server.close() };
}
