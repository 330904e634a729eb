package app.vigie.alert.web;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * The test alert's words, {@code {ta:key}}: the directory's button and the page of answers (messages/ta_en.properties,
 * messages/ta_fr.properties).
 */
@MessageBundle(value = "ta", locale = "en")
public interface TestAlertMessages {
    @Message
    String send();

    @Message
    String title(String tenant);

    @Message
    String intro();

    @Message
    String channel();

    @Message
    String target();

    @Message
    String result();

    @Message
    String delivered();

    @Message
    String not_delivered();

    @Message
    String status();

    @Message
    String answer();

    @Message
    String duration();

    @Message
    String time(long millis);

    @Message
    String back();
}
