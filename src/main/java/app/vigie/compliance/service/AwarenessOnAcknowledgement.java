package app.vigie.compliance.service;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import app.vigie.incident.AcknowledgementListener;

/**
 * A controller's awareness, from its acknowledgement of an alert. The awareness is the alert's delivery (EDPB
 * Guidelines 9/2022 v2.0, section II.A.4): only when no delivery of the incident's alerts to the tenant is known (an
 * alert read in the portal) and no earlier awareness is recorded does the acknowledgement record it.
 */
@ApplicationScoped
public class AwarenessOnAcknowledgement implements AcknowledgementListener {

    @Override
    public void acknowledged(Connection tx, UUID incident, String tenant, String what, String by, Instant at)
            throws SQLException {
        CaseAwareness.Awareness before = CaseAwareness.of(incident).get(tenant);
        Instant delivered = CaseStore.alertsDelivered(tx, incident).get(tenant);
        if (delivered == null && (before == null || before.awareAt().isAfter(at))) {
            CaseAwareness.record(incident, tenant, new CaseAwareness.Awareness(at, what, by, at));
        }
    }
}
