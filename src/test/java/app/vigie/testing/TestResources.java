package app.vigie.testing;

import io.quarkus.test.common.QuarkusTestResource;

/** Registers the real PostgreSQL for every {@code @QuarkusTest}. */
@QuarkusTestResource(PostgresResource.class)
public class TestResources {
}
