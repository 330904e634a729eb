package app.vigie.detection.model;

/**
 * One generated operation of the simulated runtime: a small int-tuple that {@link RandomLogs#interpret} reads
 * modulo the current state, so that any list of ops (shrunk or not) is an interpretable scenario. The first op of a
 * scenario is the world (sizes, tenants, deployments, flags); the others act on it.
 */
public record Op(int code, int a, int b, int c) {
}
