/**
 * Discovery of cloud provider B (Microsoft Entra ID and Azure RBAC): the `graph` track (the
 * directory, graph-discovery.ts) and one `subscription:<id>` track per subscription in
 * scope (arm-discovery.ts). This module only routes a page read to its track and keeps
 * the "never throw" promise; tokens live in the step's session (discovery-http.ts).
 */
import { readArmPage, parseArmCursor } from './arm-discovery';
import { AzureDiscoveryHttp } from './discovery-http';
import { azureEndpoints } from './endpoints';
import { parseGraphCursor, readGraphPage } from './graph-discovery';
import { GRAPH_TRACK, azureTracks, type AzureConfiguration, type AzureScope } from './integration';
import type { Discovery, DiscoveryContext, PageOutcome, TrackCursor } from '../discovery';
import { failed, readNeverThrows } from '../discovery-page';
import { unexpectedAnswer } from '../outcome';

const PROVIDER = 'Microsoft Entra ID';
const SUBSCRIPTION_TRACK = /^subscription:(.+)$/;

export const azureDiscovery: Discovery<AzureConfiguration, AzureScope> = {
  tracks: azureTracks,
  readPage: ({ configuration, scope }, track, cursor, context) => readNeverThrows(PROVIDER, () => readPage(configuration, scope, track, cursor, context)),
};

function readPage(configuration: AzureConfiguration, scope: AzureScope, track: string, saved: TrackCursor | null, context: DiscoveryContext): Promise<PageOutcome> {
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
