package app.vigie.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.vertx.core.Vertx;

import app.vigie.testing.HostileReceiver;

/**
 * A webhook receiver, or whoever types a tenant's target, attacking the sender: targets inside the provider's
 * network (metadata service, loopback, private ranges), a name that resolves elsewhere at connection time, a receiver
 * that never answers, trickles its body or floods 100 MB, and an answer made to mislead staff.
 */
class WebhookDefencesTest {
    private static final Vertx VERTX = Vertx.vertx();
    private static final byte[] BODY = "{\"alert\":{}}".getBytes(StandardCharsets.UTF_8);
    private static final Duration DEADLINE = Duration.ofSeconds(2);

    @AfterAll
    static void close() {
        VERTX.close().toCompletionStage().toCompletableFuture().join();
    }

    private static Webhook hook(List<String> allowed) {
        return new Webhook(VERTX, new WebhookTargets(allowed, false), DEADLINE);
    }

    private static String send(Webhook hook, String url) {
        return hook.send(url, List.of("whsec_test"), "key-1", "INITIAL", BODY, Instant.now());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://10.1.2.3/",
        "http://172.16.0.1/", "http://192.168.1.1/", "http://127.0.0.1/", "http://localhost/", "http://[::1]/",
        "http://[::ffff:127.0.0.1]/", "http://0.0.0.0/", "http://100.100.100.200/", "http://[fd00:ec2::254]/",
        "http://2130706433/", "http://0x7f.1/", "http://[::7f00:1]/", "http://[64:ff9b:1::a9fe:a9fe]/",
        "http://[2002:a9fe:a9fe::1]/", "http://[2001:0:a9fe:a9fe::1]/"})
    void internalAddressesAreRefusedByDefault(String url) {
        WebhookTargets targets = new WebhookTargets(List.of(), false);
        assertThatThrownBy(() -> targets.check(url)).isInstanceOf(WebhookTargets.Refused.class);
    }

    /** A target typed into the directory: refused at once when no delivery could ever reach it, without DNS. */
    @ParameterizedTest
    @ValueSource(strings = {"http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://10.1.2.3/",
        "https://192.168.1.1/", "http://127.0.0.1:8080/hook", "http://localhost/", "https://api.localhost/",
        "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://0.0.0.0/", "ftp://hooks.example.com/",
        "http://localhost./", "http://LOCALHOST./", "http://0177.0.0.1/", "http://0x7f.1/", "http://2130706433/",
        "https://127.000.000.001/",
        "https://user:pw@hooks.example.com/", "not a url"})
    void aTargetNoAlertCouldReachIsRefusedWhenSaved(String url) {
        WebhookTargets targets = new WebhookTargets(List.of(), false, host -> {
            throw new AssertionError("no DNS lookup when a target is saved: " + host);
        });
        assertThatThrownBy(() -> targets.checkSaved(url)).isInstanceOf(WebhookTargets.Refused.class);
    }

    @Test
    void aNameIsLeftToTheDeliveryAndAnAllowedNetworkIsSavedAsIs() throws Exception {
        WebhookTargets.Resolver noDns = host -> {
            throw new AssertionError("no DNS lookup when a target is saved: " + host);
        };
        new WebhookTargets(List.of(), false, noDns).checkSaved("https://hooks.example.com/vigie");
        new WebhookTargets(List.of(), false, noDns).checkSaved("https://93.184.216.34/hook");
        new WebhookTargets(List.of("127.0.0.0/8"), false, noDns).checkSaved("http://127.0.0.1:9000/hook");
        new WebhookTargets(List.of("127.0.0.0/8"), false, noDns).checkSaved("http://localhost:9000/hook");
        assertThatThrownBy(() -> new WebhookTargets(List.of(), true, noDns).checkSaved("http://hooks.example.com/"))
                .hasMessageContaining("https in production mode");
        assertThatThrownBy(() -> new WebhookTargets(List.of(), false, noDns).checkSaved("http://169.254.169.254/"))
                .hasMessageContaining("169.254.169.254").hasMessageContaining("allowed-networks");
    }

    @Test
    void aPublicAddressPassesAndAnAllowedNetworkOpensAPrivateOne() throws Exception {
        assertThat(new WebhookTargets(List.of(), false).check("https://93.184.216.34/hook").address().getHostAddress())
                .isEqualTo("93.184.216.34");
        assertThat(new WebhookTargets(List.of("10.20.0.0/16"), false).check("http://10.20.3.4:8443/h").port())
                .isEqualTo(8443);
        assertThatThrownBy(() -> new WebhookTargets(List.of("10.20.0.0/16"), false).check("http://10.21.0.1/"))
                .isInstanceOf(WebhookTargets.Refused.class);
        assertThatThrownBy(() -> new WebhookTargets(List.of("not-a-network"), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a network");
    }

    @Test
    void productionModeAsksForHttpsAndNoTargetCarriesCredentials() {
        assertThatThrownBy(() -> new WebhookTargets(List.of(), true).check("http://93.184.216.34/hook"))
                .hasMessageContaining("https");
        assertThatThrownBy(() -> new WebhookTargets(List.of(), false).check("https://user:pw@93.184.216.34/"))
                .hasMessageContaining("credentials");
    }

    @Test
    void aNameResolvingToAnyInternalAddressIsRefused() {
        WebhookTargets.Resolver dns = host -> new InetAddress[] {InetAddress.getByName("93.184.216.34"),
            InetAddress.getByName("169.254.169.254")};
        assertThatThrownBy(() -> new WebhookTargets(List.of(), false, dns).check("https://hooks.example/"))
                .hasMessageContaining("169.254.169.254");
    }

    @Test
    void aLoopbackReceiverGetsNoConnectionUnlessItsNetworkIsAllowed() throws Exception {
        try (HostileReceiver r = new HostileReceiver(204, 0, 1, 0); Webhook hook = hook(List.of())) {
            assertThat(send(hook, r.url())).startsWith("not sent: ").contains("127.0.0.1");
            Thread.sleep(200);
            assertThat(r.connections()).isZero();
        }
    }

    @Test
    void theConnectionGoesToTheAddressChecked() throws Exception {
        // the name is known to the checker only: had the client resolved it again, it would not have connected
        try (HostileReceiver r = new HostileReceiver(204, 0, 1, 0);
                Webhook hook = new Webhook(VERTX, new WebhookTargets(List.of("127.0.0.1/32"), false, host -> {
                    if (host.equals("hooks.customer.example")) {
                        return new InetAddress[] {InetAddress.getByName("127.0.0.1")};
                    }
                    throw new UnknownHostException(host);
                }), DEADLINE)) {
            assertThat(send(hook, "http://hooks.customer.example:" + r.port() + "/hook")).isNull();
            assertThat(r.hosts()).containsExactly("hooks.customer.example:" + r.port());
        }
    }

    @Test
    void aSilentReceiverCostsOneDeadline() throws Exception {
        try (HostileReceiver r = HostileReceiver.silent(); Webhook hook = hook(List.of("127.0.0.0/8"))) {
            long t0 = System.nanoTime();
            assertThat(send(hook, r.url())).startsWith("no complete answer within 2000 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(DEADLINE.plusSeconds(2));
        }
    }

    @Test
    void aTricklingErrorIsCutAtTheDeadlineAndATricklingSuccessIsDeliveredAtItsStatus() throws Exception {
        try (HostileReceiver error = new HostileReceiver(503, 1200, 1, 500);
                HostileReceiver ok = HostileReceiver.trickle(); Webhook hook = hook(List.of("127.0.0.0/8"))) {
            long t0 = System.nanoTime();
            assertThat(send(hook, error.url())).startsWith("no complete answer within");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(DEADLINE.plusSeconds(2));
            assertThat(send(hook, ok.url())).isNull();
            AlertDeliveryTest.await("the trickling connections closed", () -> error.open() == 0 && ok.open() == 0);
            assertThat(ok.written()).isLessThan(100);
        }
    }

    @Test
    void aFloodIsNotRead() throws Exception {
        try (HostileReceiver ok = HostileReceiver.flood(200); HostileReceiver error = HostileReceiver.flood(500);
                Webhook hook = hook(List.of("127.0.0.0/8"))) {
            assertThat(send(hook, ok.url())).isNull();
            String answer = send(hook, error.url());
            assertThat(answer).startsWith("HTTP 500: xxxx");
            assertThat(answer.length()).isLessThanOrEqualTo("HTTP 500: ".length() + Webhook.SHOWN + 1);
            AlertDeliveryTest.await("the floods cut", () -> ok.open() == 0 && error.open() == 0);
            // what the socket buffers took before the sender hung up, not 100 MB
            assertThat(ok.written() + error.written()).isLessThan(20L * 1024 * 1024);
        }
    }

    @Test
    void whatStaffReadOfAnAnswerIsFlatAndShort() {
        String crafted = "bad\r\nX-Injected: yes\u202Egnp.exe\u0000" + "y".repeat(500);
        String shown = Webhook.sanitize(crafted);
        assertThat(shown).doesNotContain("\r", "\n", "\u202E", "\u0000").startsWith("bad X-Injected: yes gnp.exe");
        assertThat(shown.codePointCount(0, shown.length())).isEqualTo(Webhook.SHOWN + 1);
    }
}
