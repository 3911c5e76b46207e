import { collectDefaultMetrics, Registry } from "prom-client";

let processRegistry: Registry | undefined;

/**
 * prom-client's default metrics (event-loop delay, heap and resident memory, GC, handles, CPU):
 * they describe the process, so one registry per process, however many apps a test builds.
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
