package app.vigie.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import app.vigie.testing.WebhookReceiver;

/** The webhook signature of docs/alerts.md: its worked example, and what a receiver must refuse. */
class WebhookSignatureTest {
    private static final byte[] BODY = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
    private static final Instant T = Instant.ofEpochSecond(1764687600L);

    @Test
    void theDocumentedExample() {
        // computed independently, with Python's hmac module (docs/alerts.md)
        assertThat(Webhook.signature("whsec_test", T, BODY))
                .isEqualTo("t=1764687600,v1=2e4ed78b1b81f718aa9f6ca1274a5f20254a3490fd8d57493127465c2256c4f4");
    }

    @Test
    void aReceiverRefusesATamperedBodyAnotherSecretAndAnOldSignature() {
        String header = Webhook.signature("whsec_test", T, BODY);
        long now = T.getEpochSecond() + 10;
        assertThat(WebhookReceiver.verify("whsec_test", header, BODY, now)).isTrue();
        assertThat(WebhookReceiver.verify("whsec_test", header, "{\"a\":2}".getBytes(StandardCharsets.UTF_8), now))
                .isFalse();
        assertThat(WebhookReceiver.verify("whsec_other", header, BODY, now)).isFalse();
        assertThat(WebhookReceiver.verify("whsec_test", header, BODY, now + 600)).as("a replay 10 minutes later")
                .isFalse();
        assertThat(WebhookReceiver.verify("whsec_test", header.replace("t=1764687600", "t=1764687601"), BODY, now))
                .as("the time is signed too").isFalse();
    }
}
