/**
 * Injected into every Lambda bundle (infra/bundle-options.ts): a function builds its deps from
 * its environment's configuration on first use and keeps them while warm.
 */
import { loadConfig } from '../../shared/config';
import { setDepsFactory } from '../../shared/deps';
import { createDeps } from './deps-assembly';

setDepsFactory(() => createDeps(loadConfig()));
