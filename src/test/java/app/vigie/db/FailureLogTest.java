package app.vigie.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/** A task failing on every round logs its first failure with the stack, then stays quiet, then says it recovered. */
class FailureLogTest {

    @Test
    void oneStackForAnOutageThenOneLineWhenItWorksAgain() {
        String category = "app.vigie.db.FailureLogTest.task";
        List<LogRecord> records = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger(category);
        jul.addHandler(handler);
        try {
            FailureLog log = new FailureLog(Logger.getLogger(category), "Alert delivery round");
            log.succeeded();
            assertThat(records).as("nothing to say while it works").isEmpty();
            for (int i = 0; i < 40; i++) {
                log.failed(new SQLException("Connection refused", "08001"));
            }
            assertThat(log.failing()).isTrue();
            assertThat(records).hasSize(1);
            assertThat(records.get(0).getThrown()).isInstanceOf(SQLException.class);
            log.succeeded();
            log.succeeded();
            assertThat(records).hasSize(2);
            assertThat(new SimpleFormatter().formatMessage(records.get(1))).contains("works again");
            assertThat(log.failing()).isFalse();
            log.failed(new SQLException("Connection refused", "08001"));
            assertThat(records).as("a new outage is told again").hasSize(3);
        } finally {
            jul.removeHandler(handler);
        }
    }
}
