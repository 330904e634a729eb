package app.vigie.db;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.interceptor.InterceptorBinding;

/**
 * A service's use case, one transaction: begun when the method is entered, committed when it returns, rolled back
 * when it throws (any exception, checked ones included: unlike {@code @Transactional}'s default, a failed statement's
 * {@code SQLException} never commits what came before it). Retried whole, up to five attempts, when PostgreSQL
 * reports a deadlock ({@code 40P01}), a serialization failure ({@code 40001}) or a unique violation ({@code 23505}:
 * two first saves of one key; the retry finds the other's row). Entered inside a transaction already active, it joins
 * it and retries nothing: the outermost use case owns the transaction. The same rules as {@link Transactions#run},
 * which stores and the intake's hot path keep.
 *
 * <p>Inside, {@link Transactions#connection} gives the transaction's connection to JDBC stores; entities write in the
 * same transaction. Only a call through the bean is intercepted: a private method, or a call from outside CDI, is
 * not (the connection's guard says so).
 */
@InterceptorBinding
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface UnitOfWork {
}
