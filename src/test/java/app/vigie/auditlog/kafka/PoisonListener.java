package app.vigie.auditlog.kafka;

import java.sql.Connection;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import app.vigie.auditlog.AppliedRecordListener;
import app.vigie.auditlog.record.AuditRecord;

/**
 * A test-only seam: a listener of the applied records (as the detector is one) with a bug that one record sets off,
 * seq 2 of any stream whose name ends in {@value #SUFFIX}. It throws inside the intake's transaction, as a runtime
 * exception in the detector would, every time that record is applied: a poison record that parses and is accepted.
 * Armed only by the test profiles that set {@value #ARMED} ({@link KafkaPoisonRecordTest}); in every other test app
 * it does nothing. (Not a CDI alternative: a selected alternative would shadow the detector among the listeners.)
 */
@ApplicationScoped
public class PoisonListener implements AppliedRecordListener {
    public static final String ARMED = "vigie.test.poison-listener";
    public static final String SUFFIX = "/poison";
    public static final String MESSAGE = "a detector bug set off by seq 2";

    private final AtomicInteger thrown = new AtomicInteger();

    @ConfigProperty(name = ARMED, defaultValue = "false")
    boolean armed;

    @Override
    public void applied(Connection tx, AuditRecord record) {
        if (armed && record.stream().endsWith(SUFFIX) && record.seq() == 2) {
            thrown.incrementAndGet();
            throw new IllegalStateException(MESSAGE + " of " + record.stream());
        }
    }

    /** How many times the poison record was applied (and its transaction rolled back). */
    public int thrown() {
        return thrown.get();
    }
}
