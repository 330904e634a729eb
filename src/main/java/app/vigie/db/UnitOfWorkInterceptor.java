package app.vigie.db;

import java.lang.reflect.Method;
import java.sql.SQLException;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.TransactionManager;

import io.agroal.api.AgroalDataSource;

/**
 * Runs a {@link UnitOfWork} method in its transaction, retried as {@link Transactions#run} retries. A database failure
 * reaches a caller as the {@link SQLException} the method declares, or as a {@link DatabaseException} when it declares
 * none.
 */
@UnitOfWork
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 200)
public class UnitOfWorkInterceptor {
    @Inject
    TransactionManager tm;

    @Inject
    AgroalDataSource dataSource;

    @AroundInvoke
    Object inTransaction(InvocationContext ic) throws Exception {
        try {
            return Transactions.around(tm, dataSource, ic::proceed);
        } catch (SQLException e) {
            if (declares(ic.getMethod(), e)) {
                throw e;
            }
            throw new DatabaseException(e);
        }
    }

    private static boolean declares(Method m, Exception e) {
        for (Class<?> type : m.getExceptionTypes()) {
            if (type.isInstance(e)) {
                return true;
            }
        }
        return false;
    }
}
