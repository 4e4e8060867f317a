<#-- Keycloak asks before ending a session it was not asked to end by the product itself (no id_token_hint).
     Same form as Keycloak's, without its inline submit handler (tuber.js disables the button once sent). -->
<#import "template.ftl" as layout>
<@layout.registrationLayout; section>
    <#if section = "header">
        ${msg("logoutConfirmTitle")}
    <#elseif section = "form">
        <div id="kc-logout-confirm" class="tuber-stack">
            <p class="instruction">${msg("logoutConfirmHeader")}</p>
            <form class="tuber-form" action="${url.logoutConfirmAction}" method="POST" data-tuber-submit-once>
                <input type="hidden" name="session_code" value="${logoutConfirm.code}">
                <div id="kc-form-buttons" class="${properties.kcFormButtonsClass!}">
                    <input class="${properties.kcButtonClass!} ${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!}" name="confirmLogout" id="kc-logout" type="submit" value="${msg("doLogout")}"/>
                </div>
            </form>
            <#if !logoutConfirm.skipLink>
                <a class="${properties.kcButtonClass!} ${properties.kcButtonDefaultClass!} ${properties.kcButtonBlockClass!}" href="${(((client.clientId)!'') == 'tuber-web')?then(client.baseUrl, '/')}">${msg("backToApplication")}</a>
            </#if>
        </div>
    </#if>
</@layout.registrationLayout>
