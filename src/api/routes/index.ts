/** Every route of the API, gathered from one file per area. */
import type { Services } from '../../services';
import type { RouteDefinition } from '../route';
import { consolidationRoutes } from './consolidation';
import { episodeRoutes } from './episodes';
import { healthRoutes } from './health';
import { intentRoutes } from './intents';
import { metricsRoutes } from './metrics';
import { planRoutes } from './plans';
import { principalRoutes } from './principal';
import { retrieveRoutes } from './retrieve';
import { runActionRoutes } from './run-actions';
import { runRoutes } from './runs';
import { statsRoutes } from './stats';

export function allRoutes(services: Services): RouteDefinition[] {
  return [
    ...healthRoutes(services),
    ...principalRoutes(),
    ...intentRoutes(services),
    ...runRoutes(services),
    ...runActionRoutes(services),
    ...statsRoutes(services),
    ...metricsRoutes(services),
    ...planRoutes(services),
    ...retrieveRoutes(services),
    ...episodeRoutes(services),
    ...consolidationRoutes(services),
  ];
}
