<#-- Changing the e-mail address (Keycloak's UPDATE_EMAIL action, started from a profile page's "Change
     e-mail"). Keycloak's base page labels its button with doSubmit, which this theme sets to the spec's
     "Update Password" for the reset page; here the buttons say what they do. -->
<#import "template.ftl" as layout>
<#import "password-commons.ftl" as passwordCommons>
<#import "user-profile-commons.ftl" as userProfileCommons>
<@layout.registrationLayout displayMessage=messagesPerField.exists('global') displayRequiredFields=false; section>
    <#if section = "header">
        ${msg("tuberChangeEmailTitle")}
    <#elseif section = "form">
        <p class="instruction">${msg("tuberChangeEmailHint")}</p>
        <form id="kc-update-email-form" class="${properties.kcFormClass!}" action="${url.loginAction}" method="post">
            <@userProfileCommons.userProfileFormFields/>
            <@passwordCommons.logoutOtherSessions/>
            <div id="kc-form-buttons" class="${properties.kcFormButtonsClass!}">
                <input id="tuber-change-email" class="${properties.kcButtonClass!} ${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!}" type="submit" value="${msg("tuberChangeEmailSubmit")}" />
                <#if isAppInitiatedAction??>
                    <button class="${properties.kcButtonClass!} ${properties.kcButtonDefaultClass!} ${properties.kcButtonBlockClass!}" type="submit" name="cancel-aia" value="true">${msg("tuberChangeEmailCancel")}</button>
                </#if>
            </div>
        </form>
    </#if>
</@layout.registrationLayout>
