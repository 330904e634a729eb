package app.vigie.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

import app.vigie.testing.Api;
import app.vigie.testing.SmtpResource;
import app.vigie.testing.WebhookReceiver;
import app.vigie.web.DashboardActionsTest;

/**
 * "Send a test alert": each of a tenant's channels gets a test alert now, signed and checked as a real one, and the
 * DPO sees what each receiver answered (a real webhook receiver, a real SMTP server); a receiver that refuses the
 * signature shows its 401. Audited; DPO only; from the API and from the directory's page.
 */
@QuarkusTest
class TestAlertTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eachChannelGetsASignedTestAlertAndTheReceiversAnswerIsShown() throws Exception {
        String p = Api.uniquePrefix();
        String tenant = p + "-acme";
        String mailbox = "soc@" + p + ".example";
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Api.admin().contentType("application/json").body(Map.of("legal_name", "Acme SAS", "country", "FR",
                    "alert_channels", List.of(Map.of("type", "webhook", "target", receiver.url()),
                            Map.of("type", "email", "target", mailbox))))
                    .put("/api/tenants/" + tenant).then().statusCode(200);
            receiver.secret(Api.admin().post("/api/tenants/" + tenant + "/webhook-secret").then().statusCode(200)
                    .extract().path("secret"));

            JsonPath sent = Api.admin().post("/api/tenants/" + tenant + "/test-alert").then().statusCode(200)
                    .extract().jsonPath();
            assertThat(sent.getList("results.type")).containsExactly("webhook", "email");
            assertThat(sent.getBoolean("results[0].delivered")).isTrue();
            assertThat(sent.getInt("results[0].status")).isEqualTo(204);
            assertThat(sent.getBoolean("results[1].delivered")).as(sent.prettify()).isTrue();
            String key = sent.getString("idempotency_key");
            assertThat(key).startsWith("test-");

            assertThat(receiver.received()).hasSize(1);
            WebhookReceiver.Received got = receiver.received().get(0);
            assertThat(got.verified()).as("signed with the tenant's secret").isTrue();
            assertThat(got.phase()).isEqualTo("TEST");
            assertThat(got.idempotencyKey()).isEqualTo(key);
            JsonNode body = JSON.readTree(got.body());
            assertThat(body.path("alert").path("test").asBoolean()).isTrue();
            assertThat(body.path("alert").path("tenant").asText()).isEqualTo(tenant);
            MimeMessage mail = Arrays.stream(SmtpResource.smtp().getReceivedMessages()).filter(m -> to(m, mailbox))
                    .findFirst().orElseThrow();
            assertThat(mail.getSubject()).isEqualTo("[Vigie] Alerte de test / Test alert");
            assertThat(mail.getHeader("Idempotency-Key")[0]).isEqualTo(key);

            // the receiver no longer knows the secret: its 401 is what the DPO sees
            receiver.secret("whsec_not_the_one");
            JsonPath refused = Api.admin().post("/api/tenants/" + tenant + "/test-alert").then().statusCode(200)
                    .extract().jsonPath();
            assertThat(refused.getBoolean("results[0].delivered")).isFalse();
            assertThat(refused.getInt("results[0].status")).isEqualTo(401);

            assertThat(Api.admin().get("/api/audit-trail?target=tenant:" + tenant + "&action=tenant.test-alert")
                    .then().statusCode(200).extract().jsonPath().getList("action")).hasSize(2);
            assertThat(Api.admin().get("/api/alerts?tenant=" + tenant).then().statusCode(200).extract().asString())
                    .as("no alert in the outbox").doesNotContain(key);
        }
    }

    @Test
    void noChannelNoTenantOrNoRightIsAClearRefusal() {
        String p = Api.uniquePrefix();
        Api.admin().contentType("application/json").body(Map.of("legal_name", "Bare SAS", "country", "FR"))
                .put("/api/tenants/" + p + "-bare").then().statusCode(200);
        Api.admin().post("/api/tenants/" + p + "-bare/test-alert").then().statusCode(409)
                .contentType("application/problem+json").body("detail", containsString("no alert channel"));
        Api.admin().post("/api/tenants/" + p + "-nobody/test-alert").then().statusCode(404);
        Api.account(p + "-analyst", "analyst", null);
        Api.as(p + "-analyst", p + "-analyst-password").post("/api/tenants/" + p + "-bare/test-alert").then()
                .statusCode(403);
    }

    @Test
    void theDirectorysButtonSendsItAndShowsTheAnswersInThePagesLanguage() throws Exception {
        String p = Api.uniquePrefix();
        String tenant = p + "/acme & co";  // a tenant id a URL path would break
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Api.admin().contentType("application/json").body(Map.of("legal_name", "Acme SAS", "country", "FR",
                    "alert_channels", List.of(Map.of("type", "webhook", "target", receiver.url()))))
                    .put("/api/tenants/{id}", tenant).then().statusCode(200);
            receiver.secret("whsec_unknown_to_vigie");
            DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn("admin", Api.ADMIN_PASSWORD,
                    "/tenants?lang=fr");
            assertThat(dpo.page("/tenants?lang=fr")).contains("action=\"/tenants/test-alert\"",
                    "value=\"" + p + "/acme &amp; co\"", "Envoyer une alerte de test");
            dpo.post("/tenants/test-alert", "tenant", tenant, "lang", "fr").then().statusCode(403);
            dpo.post("/tenants/test-alert", "csrf", dpo.token(), "lang", "fr").then().statusCode(400);
            assertThat(receiver.received()).isEmpty();
            Response page = dpo.post("/tenants/test-alert", "csrf", dpo.token(), "tenant", tenant, "lang", "fr");
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.asString()).contains("Alerte de test à " + p + "/acme &amp; co", "non remise", "401",
                    receiver.url());
            assertThat(receiver.received()).hasSize(1);
        }
    }

    private static boolean to(MimeMessage m, String address) {
        try {
            return m.getAllRecipients()[0].toString().equals(address);
        } catch (MessagingException e) {
            return false;
        }
    }
}
