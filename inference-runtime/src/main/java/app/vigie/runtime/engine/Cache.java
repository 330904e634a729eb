package app.vigie.runtime.engine;

/** The prefix cache of a node. */
public enum Cache {
    /** No prefix cache. */
    OFF,
    /** Keys salted per tenant: a tenant only ever hits its own prefixes (vLLM's cache salt). */
    PER_TENANT,
    /** One salt for all: a tenant can hit another's prefix (a side channel, not a disclosure). */
    SHARED
}
