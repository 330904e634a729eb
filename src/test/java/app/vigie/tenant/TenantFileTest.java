package app.vigie.tenant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import app.vigie.testing.Api;

/** The tenants file is loaded at start; an invalid one is refused whole, naming the file and the entry. */
@QuarkusTest
@TestProfile(TenantFileTest.WithFile.class)
class TenantFileTest {

    /** Starts with src/test/resources/tenants-test.yaml. */
    public static class WithFile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("vigie.tenants.file", Path.of("src/test/resources/tenants-test.yaml").toAbsolutePath()
                    .toString());
        }
    }

    @Test
    void theFileIsLoadedAtStart() {
        Api.admin().get("/api/tenants/file-tenant-acme").then().statusCode(200)
                .body("legal_name", equalTo("ACME SAS")).body("dpo.email", equalTo("dpo@acme.example"))
                .body("alert_channels[0].type", equalTo("webhook")).body("alert_delay", equalTo("PT24H"))
                .body("jurisdictions[0]", equalTo("EU"));
        Api.admin().get("/api/tenants/file-tenant-initech").then().statusCode(200).body("country", equalTo("GB"));
    }

    @Test
    void anInvalidFileNamesTheEntryAndTheProblem(@TempDir Path tmp) throws Exception {
        Path bad = tmp.resolve("tenants.yaml");
        Files.writeString(bad, """
                tenants:
                  - id: ok
                    legal_name: Ok SA
                    country: FR
                  - id: broken
                    legal_name: Broken SA
                    country: France
                    alert_channels:
                      - type: pigeon
                        target: roof
                """);
        assertThatThrownBy(() -> TenantService.read(bad)).isInstanceOf(TenantService.InvalidTenantsFile.class)
                .hasMessageContaining(bad.toString()).hasMessageContaining("entry 2 (id 'broken')")
                .hasMessageContaining("'country' must be an ISO 3166-1 alpha-2 code")
                .hasMessageContaining("'alert_channels[0]' type must be webhook, email or kafka");

        Files.writeString(bad, "tenants:\n  - id: x\n    legal_nam: typo\n");
        assertThatThrownBy(() -> TenantService.read(bad)).hasMessageContaining("legal_nam");
        Files.writeString(bad, "tenants: [\n");
        assertThatThrownBy(() -> TenantService.read(bad)).hasMessageContaining(bad.toString());
        assertThat(Files.exists(bad)).isTrue();
    }
}
