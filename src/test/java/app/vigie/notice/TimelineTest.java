package app.vigie.notice;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Whom a timeline event concerns, as documents show it: the customer, or nobody named. */
class TimelineTest {

    @Test
    void anEventNamesTheCustomerItConcernsAndNothingForTheIncidentOrTheProvidersOwnCase() {
        assertThat(Timeline.party("document.issue", "/tenant:acme/authority-notification")).isEqualTo("acme");
        assertThat(Timeline.party("case.decision", "/tenant:acme")).isEqualTo("acme");
        assertThat(Timeline.party("alert.delivered", "/acme")).isEqualTo("acme");
        assertThat(Timeline.party("obligation.escalation", "/tenant:acme/gdpr-33-2/controller")).isEqualTo("acme");
        assertThat(Timeline.party("incident.status", "")).isNull();
        // the provider's decisions and reminders: no English path word in a French document
        assertThat(Timeline.party("case.decision", "/provider")).isNull();
        assertThat(Timeline.party("obligation.escalation", "/provider/nis2-23-4a/csirt:FR")).isNull();
        // a customer whose id is "provider" is still named
        assertThat(Timeline.party("obligation.escalation", "/tenant:provider/gdpr-33-2/controller"))
                .isEqualTo("provider");
        assertThat(Timeline.party("alert.delivered", "/provider")).isEqualTo("provider");
    }
}
