/** Every route of the API, gathered from one file per area. */
import type { Services } from '../../services';
import type { RouteDefinition } from '../route';
import { consolidationRoutes } from './consolidation';
import { episodeRoutes } from './episodes';
import { healthRoutes } from './health';
import { intentRoutes } from './intents';
import { metricsRoutes } from './metrics';
import { planRoutes } from './plans';
import { retrieveRoutes } from './retrieve';
import { runRoutes } from './runs';
import { statsRoutes } from './stats';

export function allRoutes(services: Services): RouteDefinition[] {
  return [
    ...healthRoutes(services),
    ...intentRoutes(services),
    ...runRoutes(services),
    ...statsRoutes(services),
    ...metricsRoutes(services),
    ...planRoutes(services),
    ...retrieveRoutes(services),
    ...episodeRoutes(services),
    ...consolidationRoutes(services),
  ];
}
