import { PluginCallError } from "../sandbox/host.js";

/** The PluginCallError a sandbox call failed with; any other outcome fails the test. */
export async function failureOf(promise: Promise<unknown>): Promise<PluginCallError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof PluginCallError) return err;
    throw err;
  }
  throw new Error("expected the call to fail");
}
