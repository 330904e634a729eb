package app.vigie.settings.web;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * The settings page's words, {@code {st:key}}: English in messages/st_en.properties, French in
 * messages/st_fr.properties, checked at build time like every bundle (a key used and missing stops the build).
 */
@MessageBundle(value = "st", locale = "en")
public interface SettingsMessages {
    @Message
    String nav();

    @Message
    String title();

    @Message
    String intro();

    @Message
    String legal_name();

    @Message
    String address();

    @Message
    String dpo_name();

    @Message
    String dpo_email();

    @Message
    String contact();

    @Message
    String contact_help();

    @Message
    String registration();

    @Message
    String registration_help();

    @Message
    String save();

    @Message
    String saved();

    @Message
    String not_saved();

    @Message
    String from_environment();

    @Message
    String saved_by(String who, String when);

    @Message
    String not_identified();

    @Message
    String admin_only();

    @Message
    String problem_required(String field);

    @Message
    String problem_too_long(String field, int max);

    @Message
    String problem_not_email(String field);

    @Message
    String problem_control(String field);

    @Message
    String problem_control_lines(String field);
}
