package app.vigie.compliance.service;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;

/** The compliance rules and their reminders (docs/compliance.md); the provider's country and regimes are its own. */
@ConfigMapping(prefix = "vigie.compliance")
public interface ComplianceConfig {

    /** A directory of rules replacing the bundled compliance-rules/ (a legal team's edited copy). */
    Optional<String> rulesDir();

    /** Before a deadline, when its reminders go out (PT24H,PT6H,PT1H,PT0S: a day, six hours, an hour, at the time). */
    List<Duration> escalations();

    /** How often the reminder check runs (a scheduler's period, {@code off} to stop it). */
    String escalationCheckEvery();

    /** How often every running incident is planned again, besides the changes (which are planned at each check). */
    Duration fullCheckEvery();
}
