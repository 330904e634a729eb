package app.vigie.db;

import java.sql.SQLException;

/**
 * A database failure out of a {@link UnitOfWork} method that declares no {@link SQLException}: the same failure,
 * unchecked, answered as the SQLException would be (503 when the database is out of reach).
 */
public class DatabaseException extends RuntimeException {
    public DatabaseException(SQLException cause) {
        super(cause.getMessage(), cause);
    }

    @Override
    public synchronized SQLException getCause() {
        return (SQLException) super.getCause();
    }
}
