/** Every route of the API, gathered from one file per area. */
import type { Services } from '../../services';
import type { RouteDefinition } from '../route';
import { healthRoutes } from './health';

export function allRoutes(services: Services): RouteDefinition[] {
  return [...healthRoutes(services)];
}
