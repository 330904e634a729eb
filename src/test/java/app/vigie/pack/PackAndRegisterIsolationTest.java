package app.vigie.pack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.StreamSupport;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;

import app.vigie.testing.Api;

/**
 * Issue 41, point 10, through the service: a runtime names its tenants as it likes (the log's tenant ids are not the
 * directory's), so the pack's folders and the register lookups must hold whatever they are. Tenant folders are
 * prefixed, never {@code .} or {@code ..}, and two ids that differ only by case get two folders on a case-insensitive
 * file system too; a register lookup matches the tenant id exactly ({@code acme } is not {@code acme}, a tenant
 * named {@code provider} is not the provider); the directory refuses such ids with a reason.
 */
@QuarkusTest
class PackAndRegisterIsolationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void tenantFoldersArePrefixedAndNeverMeetWhateverTheTenantIds() throws Exception {
        String p = Api.uniquePrefix();
        String upper = p + "-Acme";
        String lower = p + "-acme";
        String cases = Api.leakingIncident(p, upper, lower);
        String dots = Api.leakingIncident(p + "-d", "..", ".");
        try {
            for (String id : List.of(cases, dots)) {
                byte[] zip = Api.admin().get("/api/incidents/" + id + "/regulator-pack.zip").then().statusCode(200)
                        .extract().asByteArray();
                Map<String, byte[]> files = RegulatorPackTest.unzip(zip);
                Set<String> folded = new HashSet<>();
                for (String name : files.keySet()) {
                    assertThat(List.of(name.split("/", -1))).as("the segments of " + name)
                            .doesNotContain(".", "..", "");
                    assertThat(folded.add(name.toLowerCase(Locale.ROOT))).as(name + ": another entry differs from it"
                            + " only by case").isTrue();
                    if (name.startsWith("controllers/")) {
                        assertThat(name).as("a tenant's folder is prefixed").startsWith("controllers/tenant-");
                    }
                }
                // each controller's documents in a folder of its own, as the manifest says whose they are
                JsonNode manifest = JSON.readTree(files.get(PackWriter.MANIFEST));
                Map<String, String> folderOf = new HashMap<>();
                for (JsonNode f : manifest.get("files")) {
                    String name = f.get("name").asText();
                    if (name.startsWith("controllers/")) {
                        String folder = name.substring(0, name.indexOf('/', "controllers/".length()))
                                .toLowerCase(Locale.ROOT);
                        String was = folderOf.putIfAbsent(folder, f.get("tenant").asText());
                        assertThat(was == null ? f.get("tenant").asText() : was).as(name)
                                .isEqualTo(f.get("tenant").asText());
                    }
                }
                assertThat(folderOf).hasSize(2);
            }
        } finally {
            close(cases);
            close(dots);
        }
    }

    @Test
    void aRegisterLookupMatchesTheTenantIdExactly() throws Exception {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        String spaced = acme + " ";
        String id = Api.leakingIncident(p, acme, spaced);
        Api.admin().contentType("application/json").body("{\"incident_id\":\"" + id + "\",\"tenant\":\"" + acme
                + "\"}").post("/api/register").then().statusCode(201).body("register", Matchers.equalTo(acme));

        // 'acme ' is another tenant: acme's entry is not in its register, nor in its pack
        assertThat(Api.admin().queryParam("register", spaced).queryParam("incident", id).get("/api/register").then()
                .statusCode(200).extract().jsonPath().getList("$")).as("register 'acme ' of the incident").isEmpty();
        assertThat(ownRegister(id, spaced)).as("the register entries in the pack of 'acme '").isEmpty();
        assertThat(ownRegister(id, acme)).as("acme's own, in its pack").hasSize(1);
        // and its own entry goes to its own register
        Api.admin().contentType("application/json").body("{\"incident_id\":\"" + id + "\",\"tenant\":\"" + spaced
                + "\"}").post("/api/register").then().statusCode(201).body("register", Matchers.equalTo(spaced));
        assertThat(ownRegister(id, acme)).as("acme's own, in its pack").hasSize(1);
        assertThat(ownRegister(id, spaced)).as("the register entries in the pack of 'acme '").hasSize(1);

        // a tenant of the log named 'provider' reads nothing of the provider's own register, and writes nothing in it
        String pid = Api.leakingIncident(p + "-prov", "provider", p + "-globex");
        try {
            Api.admin().contentType("application/json").body("{\"incident_id\":\"" + pid + "\"}")
                    .post("/api/register").then().statusCode(201).body("register", Matchers.equalTo("provider"));
            assertThat(ownRegister(pid, "provider")).as("the provider's own entry in the pack of tenant 'provider'")
                    .isEmpty();
            Api.admin().contentType("application/json").body("{\"incident_id\":\"" + pid + "\",\"tenant\":"
                    + "\"provider\"}").post("/api/register").then().statusCode(400)
                    .body("detail", Matchers.containsString("provider"));
            assertThat(Api.admin().queryParam("register", "provider").queryParam("incident", pid)
                    .get("/api/register").then().statusCode(200).extract().jsonPath().getList("$"))
                    .as("the provider's own register of the incident: its one entry").hasSize(1);
        } finally {
            close(pid);
        }

        // the directory refuses such ids, saying why
        for (String bad : List.of(spaced, " " + acme)) {
            Api.admin().contentType("application/json").body("{\"id\":\"" + bad + "\",\"legal_name\":\"Acme SA\","
                    + "\"country\":\"FR\"}").put("/api/tenants/{id}", bad).then().statusCode(400)
                    .body("detail", Matchers.containsString("'id'"));
        }
    }

    /** The entries of {@code tenant}'s register in its pack of the incident. */
    private static List<JsonNode> ownRegister(String id, String tenant) throws Exception {
        byte[] zip = Api.admin().get("/api/incidents/{id}/tenants/{t}/regulator-pack.zip", id, tenant).then()
                .statusCode(200).extract().asByteArray();
        JsonNode entries = JSON.readTree(RegulatorPackTest.unzip(zip).get("register/entries.json")).get("entries");
        return StreamSupport.stream(entries.spliterator(), false).toList();
    }

    private static void close(String id) {
        Api.admin().contentType("application/json").body("{\"status\": \"DISMISSED\", \"reason\": \"test tenants\"}")
                .post("/api/incidents/" + id + "/status");
    }
}
