package app.vigie.runtime.engine;

/** A request as the gateway sends it: its id, its tenant and its prompt tokens. {@code id} numbers it in the run. */
public record Request(int id, String name, String tenant, int[] prompt, int maxOutput) {
}
