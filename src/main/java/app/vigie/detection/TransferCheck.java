package app.vigie.detection;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;

import app.vigie.audit.AuditTrail;
import app.vigie.db.FailureLog;
import app.vigie.db.Transactions;
import app.vigie.detection.store.DetectionBuffer;
import app.vigie.detection.store.DetectionStore;
import app.vigie.detection.store.TransferStore;

/**
 * Spec v1.1: a read of positions a {@code sent} transfer brought is judged when the sender's {@code XFER_SEND} comes,
 * whenever that is. So that a send that never comes (a record lost, an engine that marks transfers sent without
 * writing the sender's record) does not leave reads unjudged in silence, reads still not covered
 * {@code vigie.detection.transfer-send-timeout} after they were stored raise {@code TRANSFER_SEND_MISSING} (subject:
 * the transferred request) in their deployment's incident. A send arriving later is still joined as usual.
 */
@ApplicationScoped
public class TransferCheck {
    private static final Logger LOG = Logger.getLogger(TransferCheck.class);
    private static final int BATCH = 1000;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "vigie.detection.transfer-send-timeout")
    Duration timeout;

    private final FailureLog checkLog = new FailureLog(LOG, "Transfer send check");

    @Scheduled(every = "${vigie.detection.transfer-check-every:30s}", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            check(Instant.now().minus(timeout));
            checkLog.succeeded();
        } catch (SQLException | RuntimeException e) {
            checkLog.failed(e);
        }
    }

    /**
     * Checks every read stored before {@code storedBefore} and not checked yet, a batch per transaction; returns how
     * many raised {@code TRANSFER_SEND_MISSING} (a request counts once per batch).
     */
    public int check(Instant storedBefore) throws SQLException {
        int raised = 0;
        while (true) {
            int[] counts = Transactions.run(dataSource, c -> {
                DetectionBuffer b = new DetectionBuffer();
                int looked = TransferStore.checkUnsent(c, b, storedBefore, timeout, BATCH);
                int findings = b.findingCount();
                if (findings > 0) {
                    DetectionStore.write(c, b, Instant.now());
                    AuditTrail.record("system", "detection.transfer-send-missing", "detection", null,
                            "{\"reads\":" + looked + ",\"findings\":" + findings + "}");
                }
                return new int[] {looked, findings};
            });
            raised += counts[1];
            if (counts[0] < BATCH) {
                break;
            }
        }
        if (raised > 0) {
            LOG.warnf("Transfers marked sent without the sender's XFER_SEND after %s: %d finding(s) "
                    + "TRANSFER_SEND_MISSING raised", timeout, raised);
        }
        return raised;
    }
}
