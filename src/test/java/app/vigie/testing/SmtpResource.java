package app.vigie.testing;

import java.util.Map;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** A real SMTP server (GreenMail) on a free port for the tests; the mailer is pointed at it (not Quarkus's mock). */
public class SmtpResource implements QuarkusTestResourceLifecycleManager {
    private static GreenMail smtp;

    public static GreenMail smtp() {
        return smtp;
    }

    @Override
    public Map<String, String> start() {
        smtp = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
        smtp.start();
        return Map.of("quarkus.mailer.mock", "false", "quarkus.mailer.host", "127.0.0.1",
                "quarkus.mailer.port", Integer.toString(smtp.getSmtp().getPort()),
                "quarkus.mailer.from", "vigie-tests@example.org", "quarkus.mailer.tls", "false",
                "quarkus.mailer.start-tls", "DISABLED");
    }

    @Override
    public void stop() {
        if (smtp != null) {
            smtp.stop();
        }
    }
}
