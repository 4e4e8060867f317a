<#-- Keycloak's information page, with one product case: the e-mail verification link (sent by the auth
     service with /login as its redirect) ends here, and says so, with Back to Login. Everything else is
     Keycloak's default behaviour. -->
<#import "template.ftl" as layout>
<#assign afterVerification = (pageRedirectUri!'')?ends_with('/login') && !(requiredActions??)>
<@layout.registrationLayout displayMessage=false; section>
    <#if section = "header">
        <#if afterVerification>
            ${msg("tuberEmailVerifiedTitle")}
        <#elseif messageHeader??>
            ${kcSanitize(msg("${messageHeader}"))?no_esc}
        <#else>
            ${message.summary}
        </#if>
    <#elseif section = "form">
    <div id="kc-info-message">
        <#if afterVerification>
            <p class="instruction">${msg("emailVerifiedMessage")}</p>
            <p><a id="tuber-back-to-login" class="${properties.kcButtonClass!} ${properties.kcButtonDefaultClass!} ${properties.kcButtonBlockClass!}" href="${pageRedirectUri}">${msg("tuberBackToLogin")}</a></p>
        <#else>
            <p class="instruction">${message.summary}<#if requiredActions??><#list requiredActions>: <b><#items as reqActionItem>${kcSanitize(msg("requiredAction.${reqActionItem}"))?no_esc}<#sep>, </#items></b></#list></#if></p>
            <#if !skipLink??>
                <#if pageRedirectUri?has_content>
                    <p><a href="${pageRedirectUri}">${kcSanitize(msg("backToApplication"))?no_esc}</a></p>
                <#elseif actionUri?has_content>
                    <p><a href="${actionUri}">${kcSanitize(msg("proceedWithAction"))?no_esc}</a></p>
                <#elseif (client.baseUrl)?has_content>
                    <p><a href="${client.baseUrl}">${kcSanitize(msg("backToApplication"))?no_esc}</a></p>
                </#if>
            </#if>
        </#if>
    </div>
    </#if>
</@layout.registrationLayout>
