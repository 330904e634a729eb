package app.vigie.register;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import app.vigie.testing.Api;
import app.vigie.testing.AtOnce;
import app.vigie.testing.PdfChecks;

/** The violation register: entries from an incident's facts, append-only, hash-chained, verified, exported. */
@QuarkusTest
class RegisterTest {
    private static final String JSON = "application/json";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void entriesAreBuiltFromTheIncidentChainedVerifiedAndATamperedOneIsNamed() throws Exception {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        String globex = p + "-globex";
        Api.admin().contentType(JSON).body("{\"legal_name\":\"=Acme, SAS\",\"country\":\"FR\"}")
                .put("/api/tenants/" + acme).then().statusCode(200);
        String id = Api.leakingIncident(p, acme, globex);

        Api.admin().contentType(JSON).body("{\"text\":\"\"}").post("/api/incidents/" + id + "/measures").then()
                .statusCode(400).body("detail", containsString("'text' is required"));
        Api.admin().contentType(JSON).body("{\"text\":\"Pool resized; over-long prompts aborted\","
                + "\"taken_at\":\"2026-08-27T13:00:00+02:00\"}").post("/api/incidents/" + id + "/measures").then()
                .statusCode(201).body("taken_at", equalTo("2026-08-27T11:00:00Z"));

        Api.admin().contentType(JSON).body("{}").post("/api/register").then().statusCode(400)
                .body("detail", containsString("'incident_id' is required"));
        Api.admin().contentType(JSON).body("{\"incident_id\":\"" + id + "\",\"tenant\":\"nobody\"}")
                .post("/api/register").then().statusCode(404);
        JsonPath first = Api.admin().contentType(JSON).body("{\"incident_id\":\"" + id + "\",\"tenant\":\"" + acme
                + "\"}").post("/api/register").then().statusCode(201).extract().jsonPath();
        assertThat(first.getString("entry.controller")).isEqualTo("=Acme, SAS");
        assertThat(first.getLong("entry.records.exposed_tokens")).isEqualTo(8);
        assertThat(first.getString("entry.measures[0].text")).contains("over-long prompts aborted");
        assertThat(first.getList("entry.authorities.rule")).contains("gdpr-33-1");
        assertThat(first.getList("entry.data_subjects.rule")).as("the public communication: not planned")
                .containsExactly("gdpr-34");
        String provider = Api.admin().contentType(JSON).body("{\"incident_id\":\"" + id + "\"}")
                .post("/api/register").then().statusCode(201).body("register", equalTo("provider"))
                .body("entry.records.affected_tenants", equalTo(2)).extract().jsonPath().getString("prev_hash");
        assertThat(provider).isEqualTo(first.getString("hash"));

        JsonPath ok = Api.admin().get("/api/register/verify").then().statusCode(200).extract().jsonPath();
        assertThat(ok.getBoolean("valid")).isTrue();
        long entry = first.getLong("id");
        assertThat(Api.admin().get("/api/register?register=" + acme).then().statusCode(200).extract().jsonPath()
                .getList("id", Long.class)).containsExactly(entry);

        // append-only in the database; a change made around it (a superuser) is caught and named
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.executeUpdate("update register_entry set body = body where id = " + entry))
                    .hasMessageContaining("append-only");
            assertThatThrownBy(() -> st.executeUpdate("delete from register_entry where id = " + entry))
                    .hasMessageContaining("append-only");
            String body = body(c, entry);
            st.execute("set session_replication_role = replica");
            try {
                st.executeUpdate("update register_entry set body = replace(body, '\"exposed_tokens\":8', "
                        + "'\"exposed_tokens\":0') where id = " + entry);
                JsonPath broken = Api.admin().get("/api/register/verify").then().statusCode(200).extract().jsonPath();
                assertThat(broken.getBoolean("valid")).isFalse();
                assertThat(broken.getLong("first_broken")).isEqualTo(entry);
                assertThat(broken.getString("reason")).contains("changed after it was written");

                try (PreparedStatement ps = c.prepareStatement("update register_entry set body = ? where id = ?")) {
                    ps.setString(1, body);
                    ps.setLong(2, entry);
                    ps.executeUpdate();
                }
                assertThat(Api.admin().get("/api/register/verify").then().extract().jsonPath().getBoolean("valid"))
                        .isTrue();
            } finally {
                st.execute("set session_replication_role = origin");
            }
        }

        // CSV: quoted as RFC 4180, a formula-looking cell defused, times in UTC and in the reader's zone
        String csv = Api.admin().get("/api/register/export.csv?register=" + acme).then().statusCode(200)
                .contentType(containsString("text/csv")).extract().asString();
        assertThat(csv.lines().toList()).hasSize(2);
        Instant recorded = Instant.parse(first.getString("recorded_at"));
        String paris = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx")
                .withZone(ZoneId.of("Europe/Paris")).format(recorded);
        assertThat(csv).contains("\"'=Acme, SAS\"").contains("," + recorded + "," + paris + ",")
                .contains("supervisory_authority:FR PENDING");
        Api.admin().get("/api/register/export.csv?zone=Mars/Olympus").then().statusCode(400);
        // the language as a reader may type it
        Api.admin().get("/api/register/export.pdf?lang=EN").then().statusCode(200).contentType("application/pdf");
        Api.admin().queryParam("lang", " fr").get("/api/register/export.pdf").then().statusCode(200);
        Api.admin().get("/api/register/export.pdf?lang=xx").then().statusCode(400)
                .contentType("application/problem+json");

        Api.account("auditor6", "auditor", null);
        Api.as("auditor6", "auditor6-password").get("/api/register/verify").then().statusCode(200);
        Api.as("auditor6", "auditor6-password").contentType(JSON).body("{\"incident_id\":\"" + id + "\"}")
                .post("/api/register").then().statusCode(403);
    }

    /**
     * GDPR Art. 34(3): an exception the controller records (here (c), disproportionate effort) closes the individual
     * communication, opens the public one in its place, and goes to the register with its justification, in both
     * languages.
     */
    @Test
    void anArticle34ExceptionClosesTheCommunicationAndIsRegisteredWithItsJustification() throws Exception {
        String p = Api.uniquePrefix();
        String masse = Api.controller(p + "-masse", "Masse SAS", "FR");
        String id = Api.leakingIncident(p, masse, p + "-other");
        Api.admin().contentType(JSON).body("{\"value\":true,\"justification\":\"aucune coordonnée pour "
                + "2 millions d'utilisateurs\"}").put("/api/incidents/" + id + "/tenants/" + masse
                + "/decisions/disproportionate_effort").then().statusCode(200);
        JsonPath e = Api.admin().contentType(JSON).body("{\"incident_id\":\"" + id + "\",\"tenant\":\"" + masse
                + "\"}").post("/api/register").then().statusCode(201).extract().jsonPath();
        assertThat(e.getList("entry.data_subjects.rule")).containsExactly("gdpr-34", "gdpr-34-3-c");
        assertThat(e.getList("entry.data_subjects.status")).containsExactly("NOT_REQUIRED", "PENDING");
        assertThat(e.getString("entry.data_subjects[0].reason_code")).isEqualTo("EXCEPTION_RECORDED");
        assertThat(e.getString("entry.data_subjects[1].recipient")).isEqualTo("public");
        assertThat(e.getList("entry.decisions.name")).contains("disproportionate_effort");
        assertThat(e.getList("entry.decisions.justification")).contains("aucune coordonnée pour 2 millions "
                + "d'utilisateurs");
        byte[] frPdf = Api.admin().get("/api/register/export.pdf?lang=fr&register=" + masse).then().statusCode(200)
                .extract().asByteArray();
        PdfChecks.render(frPdf, "register-art-34-3-fr");
        String fr = PdfChecks.text(frPdf).replaceAll("\\s+", " ");
        assertThat(fr).contains("le public (communication publique)").contains("efforts disproportionnés")
                .contains("aucune coordonnée pour 2 millions d'utilisateurs");
        byte[] en = Api.admin().get("/api/register/export.pdf?lang=en&register=" + masse).then().statusCode(200)
                .extract().asByteArray();
        assertThat(PdfChecks.text(en).replaceAll("\\s+", " ")).contains("the public (a public communication)")
                .contains("disproportionate effort");
        PdfChecks.render(en, "register-art-34-3-en");
    }

    private static String body(Connection c, long id) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("select body from register_entry where id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /** Appends made at once still make one chain: each entry's previous hash is the hash of the entry before it. */
    @Test
    void concurrentAppendsMakeOneChain() throws Exception {
        String p = Api.uniquePrefix();
        String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
        int n = 8;
        List<Integer> statuses = AtOnce.run(n, i -> () -> Api.admin().contentType(JSON).body(i % 2 == 0
                ? "{\"incident_id\":\"" + id + "\"}"
                : "{\"incident_id\":\"" + id + "\",\"tenant\":\"" + p + "-acme\"}").post("/api/register").statusCode());
        assertThat(statuses).containsOnly(201);
        List<String> broken = new ArrayList<>();
        int mine = 0;
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                select incident_id::text, prev_hash, coalesce(lag(hash) over (order by id), repeat('0', 64))
                from register_entry order by id""");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                if (id.equals(rs.getString(1))) {
                    mine++;
                    if (!rs.getString(2).equals(rs.getString(3))) {
                        broken.add(rs.getString(2));
                    }
                }
            }
        }
        assertThat(mine).isEqualTo(n);
        assertThat(broken).as("entries chained to something else than the entry before them").isEmpty();
    }
}
