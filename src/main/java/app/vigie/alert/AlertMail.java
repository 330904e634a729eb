package app.vigie.alert;

/**
 * What an alert's e-mail says, for its template ({@code templates/mail/processor-alert.<lang>.txt}, a legal team's to
 * edit): the notice's title, the incident, the phase (INITIAL, UPDATE, FINAL), the acknowledgement link and the
 * Idempotency-Key.
 */
public record AlertMail(String title, String incident, String phase, String acknowledgeUrl, String idempotencyKey) {
    public boolean update() {
        return AlertPlanner.UPDATE.equals(phase);
    }

    public boolean last() {
        return AlertPlanner.FINAL.equals(phase);
    }
}
