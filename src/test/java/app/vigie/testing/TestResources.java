package app.vigie.testing;

import io.quarkus.test.common.QuarkusTestResource;

/** Registers the real PostgreSQL and a real SMTP server for every {@code @QuarkusTest}. */
@QuarkusTestResource(PostgresResource.class)
@QuarkusTestResource(SmtpResource.class)
public class TestResources {
}
