/**
 * Discovery of cloud provider B (Microsoft Entra ID and Azure RBAC): the `graph` track (the
 * directory, azure-graph-discovery.ts) and one `subscription:<id>` track per subscription in
 * scope (azure-arm-discovery.ts). This module only routes a page read to its track and keeps
 * the "never throw" promise; tokens live in the step's session (azure-discovery-http.ts).
 */
import { readArmPage, parseArmCursor } from './azure-arm-discovery';
import { AzureDiscoveryHttp } from './azure-discovery-http';
import { azureEndpoints } from './azure-endpoints';
import { parseGraphCursor, readGraphPage } from './azure-graph-discovery';
import { GRAPH_TRACK, cloudProviderBTracks, type CloudProviderBConfiguration, type CloudProviderBScope } from './cloud-provider-b';
import type { Discovery, DiscoveryContext, PageOutcome, TrackCursor } from './discovery';
import { failed, readNeverThrows } from './discovery-page';
import { unexpectedAnswer } from './outcome';

const PROVIDER = 'Microsoft Entra ID';
const SUBSCRIPTION_TRACK = /^subscription:(.+)$/;

export const cloudProviderBDiscovery: Discovery<CloudProviderBConfiguration, CloudProviderBScope> = {
  tracks: cloudProviderBTracks,
  readPage: ({ configuration, scope }, track, cursor, context) => readNeverThrows(PROVIDER, () => readPage(configuration, scope, track, cursor, context)),
};

function readPage(configuration: CloudProviderBConfiguration, scope: CloudProviderBScope, track: string, saved: TrackCursor | null, context: DiscoveryContext): Promise<PageOutcome> {
  const http = new AzureDiscoveryHttp(configuration, azureEndpoints(context.endpoints), context);
  const badCursor = () => Promise.resolve(failed([unexpectedAnswer(PROVIDER, 'the saved cursor is not one this connector writes')]));
  if (track === GRAPH_TRACK) {
    const cursor = parseGraphCursor(saved);
    return cursor ? readGraphPage(http, configuration, cursor) : badCursor();
  }
  const subscriptionId = SUBSCRIPTION_TRACK.exec(track)?.[1];
  if (!subscriptionId || !scope.subscription_ids.includes(subscriptionId)) {
    return Promise.resolve(failed([unexpectedAnswer(PROVIDER, `track ${track} is not a subscription in scope`)]));
  }
  const cursor = parseArmCursor(saved);
  return cursor ? readArmPage(http, configuration, subscriptionId, cursor, context.session) : badCursor();
}
